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
import { PostgresWebhookOutbox } from './postgres-webhook-outbox.ts';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox.ts';
import { webhookMigrations } from './webhook-migrations.ts';
import { webhookOutboxConformance } from './webhook-outbox-conformance.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-outbox-'));
after(() => rmSync(root, { recursive: true, force: true }));

webhookOutboxConformance('sqlite', () => {
  const { store, ...rest } = sqliteStores(root, (database) => new SqliteWebhookOutbox(database));
  return { outbox: store, ...rest };
});

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

webhookOutboxConformance('postgres', async () => {
  const { store, ...rest } = await postgresStores(
    server,
    webhookMigrations,
    (pool) => new PostgresWebhookOutbox(pool),
  );
  return { outbox: store, ...rest };
});
