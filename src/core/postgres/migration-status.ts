import type { PostgresQueryable } from './check-postgres-version.ts';
import { toStoreError } from './classify-postgres-error.ts';
import { type PostgresPool, poolTarget } from './create-postgres-pool.ts';
import { combineMigrations, type Migration, migrationChecksum } from './migrations.ts';

/** Where one migration stands in a database. */
export type MigrationState =
  /** Applied, with the SQL this code has. */
  | 'applied'
  /** Not applied yet. */
  | 'pending'
  /** Applied, but this code's SQL differs (an edited migration: applying refuses to start). */
  | 'changed'
  /** Applied by a newer version of Yeoul; this code does not know it. */
  | 'unknown';

/** One line of `yeoul migrate --status`. */
export interface MigrationStatusEntry {
  version: number;
  name: string;
  state: MigrationState;
  /** When it was applied; undefined while pending. */
  appliedAt: Date | undefined;
}

/** A row of `yeoul_migrations`. */
export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
  appliedAt: Date;
}

/** The migrations recorded in a database, by version (none when the table does not exist yet). */
export async function readAppliedMigrations(
  database: PostgresQueryable,
): Promise<Map<number, AppliedMigration>> {
  const exists = await database.query("SELECT to_regclass('yeoul_migrations') IS NOT NULL AS ok");
  if (exists.rows[0]?.ok !== true) return new Map();
  const { rows } = await database.query(
    'SELECT version, name, checksum, applied_at FROM yeoul_migrations ORDER BY version',
  );
  return new Map(
    rows.map((row) => [
      Number(row.version),
      {
        version: Number(row.version),
        name: String(row.name),
        checksum: String(row.checksum),
        appliedAt: row.applied_at as Date,
      },
    ]),
  );
}

/**
 * Every migration of `migrations` and of the database, ordered by version, with its state:
 * applied, pending, changed since it was applied, or unknown to this code.
 */
export async function migrationStatus(
  pool: PostgresPool,
  migrations: readonly Migration[],
): Promise<MigrationStatusEntry[]> {
  let applied: Map<number, AppliedMigration>;
  try {
    applied = await readAppliedMigrations(pool);
  } catch (error) {
    throw toStoreError(error, poolTarget(pool));
  }
  const entries: MigrationStatusEntry[] = combineMigrations(migrations).map((migration) => {
    const record = applied.get(migration.version);
    const state: MigrationState =
      record === undefined
        ? 'pending'
        : record.checksum === migrationChecksum(migration)
          ? 'applied'
          : 'changed';
    return {
      version: migration.version,
      name: migration.name,
      state,
      appliedAt: record?.appliedAt,
    };
  });
  const known = new Set(entries.map((entry) => entry.version));
  for (const record of applied.values()) {
    if (known.has(record.version)) continue;
    entries.push({ ...record, state: 'unknown' });
  }
  return entries
    .map(({ version, name, state, appliedAt }) => ({ version, name, state, appliedAt }))
    .sort((a, b) => a.version - b.version);
}
