import { DatabaseSync } from 'node:sqlite';
import { after, before } from 'node:test';
import { applyMigrations, createPostgresPool } from '../core/index.ts';
import {
  type PostgresServer,
  sessionStoreConformance,
  startPostgresServer,
} from '../testing/index.ts';
import { PostgresSessionStore } from './postgres-session-store.ts';
import { serverMigrations } from './server-migrations.ts';
import { SessionRegistry } from './session-registry.ts';

sessionStoreConformance('sqlite', () => {
  const database = new DatabaseSync(':memory:');
  return { store: new SessionRegistry(database), close: () => database.close() };
});

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

sessionStoreConformance('postgres', async () => {
  const pool = await createPostgresPool({ url: await server.createDatabase() });
  await applyMigrations(pool, serverMigrations);
  return { store: new PostgresSessionStore(pool), close: () => pool.end() };
});
