import { after, before } from 'node:test';
import { applyMigrations, createPostgresPool } from '../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../testing/internal/index.ts';
import { memoryStoreConformance } from './memory-store-conformance.ts';
import { openPostgresMemoryStore, openSqliteMemoryStore } from './open-memory-store.ts';
import { memoryMigrations } from './postgres-migrations.ts';

memoryStoreConformance('sqlite', ({ embedder }) => ({
  store: openSqliteMemoryStore({ path: ':memory:', embedder }),
  close: () => undefined,
}));

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

memoryStoreConformance('postgres', async ({ embedder }) => {
  const pool = await createPostgresPool({ url: await server.createDatabase() });
  await applyMigrations(pool, memoryMigrations);
  return { store: openPostgresMemoryStore(pool, { embedder }), close: () => pool.end() };
});
