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
import { PostgresResponseStore } from './postgres-response-store.ts';
import { responseMigrations } from './response-migrations.ts';
import { responseStoreConformance } from './response-store-conformance.ts';
import { SqliteResponseStore } from './sqlite-response-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-responses-'));
after(() => rmSync(root, { recursive: true, force: true }));

responseStoreConformance('sqlite', () =>
  sqliteStores(root, (database) => new SqliteResponseStore(database)),
);

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

responseStoreConformance('postgres', () =>
  postgresStores(server, responseMigrations, (pool) => new PostgresResponseStore(pool)),
);
