import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { PostgresUsageStore } from './postgres-usage-store.ts';
import { SqliteUsageStore } from './sqlite-usage-store.ts';
import { usageMigrations } from './usage-migrations.ts';
import { usageStoreConformance } from './usage-store-conformance.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-usage-'));
after(() => rmSync(root, { recursive: true, force: true }));

usageStoreConformance('sqlite', () => {
  // A file, as the data folder's: a restart opens it again.
  const path = join(mkdtempSync(join(root, 'sqlite-')), 'threads.sqlite');
  let database = new DatabaseSync(path);
  return {
    store: new SqliteUsageStore(database),
    async reopen() {
      database.close();
      database = new DatabaseSync(path);
      return new SqliteUsageStore(database);
    },
    close: () => database.close(),
  };
});

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

usageStoreConformance('postgres', async () => {
  const url = await server.createDatabase();
  let pool: PostgresPool = await createPostgresPool({ url });
  await applyMigrations(pool, usageMigrations);
  return {
    store: new PostgresUsageStore(pool),
    async reopen() {
      await pool.end();
      pool = await createPostgresPool({ url });
      return new PostgresUsageStore(pool);
    },
    close: () => pool.end(),
  };
});
