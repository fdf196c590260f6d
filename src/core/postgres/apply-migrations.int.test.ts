import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { applyMigrations } from './apply-migrations.ts';
import { createPostgresPool, type PostgresPool } from './create-postgres-pool.ts';
import { MigrationChecksumError } from './errors/migration-checksum-error.ts';
import { MigrationFailedError } from './errors/migration-failed-error.ts';
import { migrationStatus } from './migration-status.ts';
import type { Migration } from './migrations.ts';

const counter: Migration[] = [
  { version: 1, name: 'counter', sql: 'CREATE TABLE counter (n integer NOT NULL)' },
  // Slow on purpose, so that concurrent runners overlap.
  { version: 2, name: 'counter_row', sql: 'SELECT pg_sleep(0.2); INSERT INTO counter VALUES (1)' },
  { version: 3, name: 'counter_increment', sql: 'UPDATE counter SET n = n + 1' },
];

let server: PostgresServer;
const pools: PostgresPool[] = [];
before(async () => {
  server = await startPostgresServer();
});
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await server.stop();
});

async function freshPool(): Promise<PostgresPool> {
  const pool = await createPostgresPool({ url: await server.createDatabase() });
  pools.push(pool);
  return pool;
}

async function count(pool: PostgresPool): Promise<number> {
  return (await pool.query<{ n: number }>('SELECT n FROM counter')).rows[0]?.n ?? -1;
}

describe('applyMigrations', () => {
  it('applies pending migrations in version order and records each once', async () => {
    const pool = await freshPool();
    const applied = await applyMigrations(pool, [
      counter[2],
      counter[0],
      counter[1],
    ] as Migration[]);
    assert.deepEqual(
      applied.map((migration) => migration.version),
      [1, 2, 3],
    );
    assert.equal(await count(pool), 2);
    const { rows } = await pool.query(
      'SELECT version, name, checksum FROM yeoul_migrations ORDER BY version',
    );
    assert.deepEqual(
      rows.map((row) => row.name),
      ['counter', 'counter_row', 'counter_increment'],
    );
    assert.ok(rows.every((row) => /^[0-9a-f]{64}$/.test(row.checksum)));
  });

  it('does nothing when run again on an up-to-date database', async () => {
    const pool = await freshPool();
    await applyMigrations(pool, counter);
    assert.deepEqual(await applyMigrations(pool, counter), []);
    assert.equal(await count(pool), 2);
  });

  it('applies each migration exactly once when several instances start together', async () => {
    const url = await server.createDatabase();
    const instances = await Promise.all(
      [1, 2, 3].map(() => createPostgresPool({ url, maxConnections: 2 })),
    );
    pools.push(...instances);
    const results = await Promise.all(instances.map((pool) => applyMigrations(pool, counter)));
    assert.deepEqual(results.map((applied) => applied.length).sort(), [0, 0, 3]);
    assert.equal(await count(instances[0] as PostgresPool), 2);
  });

  it('refuses to start when an applied migration’s SQL was changed', async () => {
    const pool = await freshPool();
    await applyMigrations(pool, counter.slice(0, 2));
    const edited = [
      counter[0],
      { ...(counter[1] as Migration), sql: 'INSERT INTO counter VALUES (5)' },
      counter[2],
    ];
    await assert.rejects(applyMigrations(pool, edited as Migration[]), (error: unknown) => {
      assert.ok(error instanceof MigrationChecksumError);
      assert.equal(error.code, 'migration_checksum_mismatch');
      assert.match(error.message, /2 counter_row/);
      return true;
    });
    assert.equal(await count(pool), 1, 'nothing after the check ran');
  });

  it('rolls back a failing migration whole and keeps the ones before it', async () => {
    const pool = await freshPool();
    const broken: Migration = {
      version: 4,
      name: 'broken',
      sql: 'CREATE TABLE half_done (x int); SELECT * FROM no_such_table',
    };
    await assert.rejects(applyMigrations(pool, [...counter, broken]), (error: unknown) => {
      assert.ok(error instanceof MigrationFailedError);
      assert.equal(error.code, 'migration_failed');
      assert.equal(error.version, 4);
      assert.match(error.message, /no_such_table/);
      return true;
    });
    const { rows } = await pool.query("SELECT to_regclass('half_done') IS NULL AS gone");
    assert.equal(rows[0]?.gone, true);
    assert.deepEqual(
      (await migrationStatus(pool, [...counter, broken])).map((entry) => entry.state),
      ['applied', 'applied', 'applied', 'pending'],
    );
  });

  it('reports applied, pending, changed and unknown migrations in its status', async () => {
    const pool = await freshPool();
    assert.deepEqual(
      (await migrationStatus(pool, counter)).map((entry) => entry.state),
      ['pending', 'pending', 'pending'],
    );
    await applyMigrations(pool, counter.slice(0, 2));
    const status = await migrationStatus(pool, [
      { ...(counter[0] as Migration), sql: 'CREATE TABLE counter (n bigint)' },
      counter[2] as Migration,
    ]);
    assert.deepEqual(
      status.map(({ version, name, state }) => ({ version, name, state })),
      [
        { version: 1, name: 'counter', state: 'changed' },
        { version: 2, name: 'counter_row', state: 'unknown' },
        { version: 3, name: 'counter_increment', state: 'pending' },
      ],
    );
    assert.ok(status[0]?.appliedAt instanceof Date);
    assert.equal(status[2]?.appliedAt, undefined);
  });

  it('tolerates migrations applied by a newer instance that this code does not know', async () => {
    const pool = await freshPool();
    await applyMigrations(pool, counter);
    assert.deepEqual(await applyMigrations(pool, counter.slice(0, 1)), []);
  });
});
