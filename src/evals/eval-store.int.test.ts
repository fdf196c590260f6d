import { DatabaseSync } from 'node:sqlite';
import { after, before } from 'node:test';
import { applyMigrations, createPostgresPool } from '../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../testing/internal/index.ts';
import { evalMigrations } from './eval-migrations.ts';
import { evalStoreConformance } from './eval-store-conformance.ts';
import { PostgresEvalStore } from './postgres-eval-store.ts';
import { SqliteEvalStore } from './sqlite-eval-store.ts';

evalStoreConformance('sqlite', () => {
  const database = new DatabaseSync(':memory:');
  return { store: new SqliteEvalStore(database), close: () => database.close() };
});

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

evalStoreConformance('postgres', async () => {
  const pool = await createPostgresPool({ url: await server.createDatabase() });
  await applyMigrations(pool, evalMigrations);
  return { store: new PostgresEvalStore(pool), close: () => pool.end() };
});
