import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { PostgresRunStore } from './postgres-run-store.ts';
import { runMigrations } from './run-migrations.ts';
import { runStoreConformance } from './run-store-conformance.ts';
import { SqliteRunStore } from './sqlite-run-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A connection to the data folder's database as the stores open it (WAL, a busy timeout). */
function openDatabase(path: string): DatabaseSync {
  const database = new DatabaseSync(path);
  database.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  return database;
}

runStoreConformance('sqlite', () => {
  const path = join(mkdtempSync(join(root, 'data-')), 'threads.sqlite');
  const databases = [openDatabase(path)];
  return {
    store: new SqliteRunStore(databases[0] as DatabaseSync),
    another: () => {
      const database = openDatabase(path);
      databases.push(database);
      return new SqliteRunStore(database);
    },
    close: () => {
      for (const database of databases) database.close();
    },
  };
});

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

runStoreConformance('postgres', async () => {
  const url = await server.createDatabase();
  const pools: PostgresPool[] = [await createPostgresPool({ url })];
  await applyMigrations(pools[0] as PostgresPool, runMigrations);
  return {
    store: new PostgresRunStore(pools[0] as PostgresPool),
    another: async () => {
      const pool = await createPostgresPool({ url });
      pools.push(pool);
      return new PostgresRunStore(pool);
    },
    close: async () => {
      for (const pool of pools) await pool.end();
    },
  };
});
