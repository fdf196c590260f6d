import type pg from 'pg';
import { checkPostgresVersion } from './check-postgres-version.ts';
import { isConnectionFailure, toStoreError } from './classify-postgres-error.ts';
import { type PostgresPool, poolTarget } from './create-postgres-pool.ts';
import { MigrationChecksumError } from './errors/migration-checksum-error.ts';
import { MigrationFailedError } from './errors/migration-failed-error.ts';
import { readAppliedMigrations } from './migration-status.ts';
import { combineMigrations, type Migration, migrationChecksum } from './migrations.ts';

/** How `applyMigrations` waits. */
export interface ApplyMigrationsOptions {
  /** Longest wait for another instance's migration run or for a table lock (default 120 000 ms). */
  lockTimeoutMs?: number;
}

/** The advisory lock every instance takes to migrate: the bytes of "yeoul_mg". */
const migrationLockKey = '8747520401357106535';

const migrationTableSql = `CREATE TABLE IF NOT EXISTS yeoul_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Brings the database's schema up to date: checks the server's version, then, holding an
 * advisory lock so that instances starting together apply each migration exactly once,
 * refuses to go on if an applied migration's SQL changed (`MigrationChecksumError`), and
 * applies the pending ones in version order, each in its own transaction with its record in
 * `yeoul_migrations`. A failing one is rolled back (`MigrationFailedError`) and stops the run.
 * Resolves to the migrations it applied (none when already up to date).
 * @example
 * const applied = await applyMigrations(pool, combineMigrations(knowledgeMigrations));
 */
export async function applyMigrations(
  pool: PostgresPool,
  migrations: readonly Migration[],
  options: ApplyMigrationsOptions = {},
): Promise<Migration[]> {
  const ordered = combineMigrations(migrations);
  const target = poolTarget(pool);
  // A session of its own, without the pool's statement and read timeouts: waiting for another
  // instance's run, or building an index, may rightly take longer than a request may.
  const { default: driver } = await import('pg');
  const client = new driver.Client({
    ...(pool.options as pg.ClientConfig),
    statement_timeout: 0,
    query_timeout: undefined,
    lock_timeout: options.lockTimeoutMs ?? 120_000,
    application_name: 'yeoul-migrate',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    // Explicitly, over any role or database default (a 0 in the connection settings is not sent).
    await client.query('SET statement_timeout = 0');
    await checkPostgresVersion(client);
    await client.query('SELECT pg_advisory_lock($1::bigint)', [migrationLockKey]);
    await client.query(migrationTableSql);
    const applied = await readAppliedMigrations(client);
    const changed = ordered.filter((migration) => {
      const record = applied.get(migration.version);
      return record !== undefined && record.checksum !== migrationChecksum(migration);
    });
    if (changed.length > 0) {
      throw new MigrationChecksumError({
        migrations: changed.map(({ version, name }) => ({ version, name })),
      });
    }
    const pending = ordered.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) await applyOne(client, migration);
    return pending;
  } catch (error) {
    throw toStoreError(error, target);
  } finally {
    // Ending the session also releases the advisory lock.
    await client.end().catch(() => undefined);
  }
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query(migration.sql);
    await client.query(
      'INSERT INTO yeoul_migrations (version, name, checksum) VALUES ($1, $2, $3)',
      [migration.version, migration.name, migrationChecksum(migration)],
    );
    await client.query('COMMIT');
  } catch (error) {
    if (isConnectionFailure(error)) throw error;
    await client.query('ROLLBACK').catch(() => undefined);
    throw new MigrationFailedError(
      {
        version: migration.version,
        name: migration.name,
        reason: error instanceof Error ? error.message : String(error),
      },
      { cause: error },
    );
  }
}
