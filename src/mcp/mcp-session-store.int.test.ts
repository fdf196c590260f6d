import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  type PostgresServer,
  postgresStores,
  sqliteStores,
  startPostgresServer,
} from '../testing/internal/index.ts';
import { mcpSessionMigrations } from './mcp-session-migrations.ts';
import { mcpSessionStoreConformance } from './mcp-session-store-conformance.ts';
import { PostgresMcpSessionStore } from './postgres-mcp-session-store.ts';
import { SqliteMcpSessionStore } from './sqlite-mcp-session-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-mcp-sessions-'));
after(() => rmSync(root, { recursive: true, force: true }));

mcpSessionStoreConformance('sqlite', () =>
  sqliteStores(root, (database) => new SqliteMcpSessionStore(database)),
);

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

mcpSessionStoreConformance('postgres', () =>
  postgresStores(server, mcpSessionMigrations, (pool) => new PostgresMcpSessionStore(pool)),
);
