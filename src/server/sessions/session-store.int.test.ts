import { DatabaseSync } from 'node:sqlite';
import { after, before } from 'node:test';
import { applyMigrations, createPostgresPool } from '../../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { serverMigrations } from '../scale-out/server-migrations.ts';
import { PostgresSessionStore } from './postgres-session-store.ts';
import { sessionStoreConformance } from './session-store-conformance.ts';
import { SqliteSessionStore } from './sqlite-session-store.ts';

sessionStoreConformance('sqlite', () => {
  const database = new DatabaseSync(':memory:');
  return { store: new SqliteSessionStore(database), close: () => database.close() };
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
