import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  type PostgresServer,
  postgresStores,
  sqliteStores,
  startPostgresServer,
} from '../../testing/internal/index.ts';
import { PostgresRunStore } from './postgres-run-store.ts';
import { runMigrations } from './run-migrations.ts';
import { runStoreConformance } from './run-store-conformance.ts';
import { SqliteRunStore } from './sqlite-run-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-'));
after(() => rmSync(root, { recursive: true, force: true }));

runStoreConformance('sqlite', () => sqliteStores(root, (database) => new SqliteRunStore(database)));

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

runStoreConformance('postgres', () =>
  postgresStores(server, runMigrations, (pool) => new PostgresRunStore(pool)),
);
