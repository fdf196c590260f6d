import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import {
  type OpenedStores,
  type PostgresServer,
  postgresStores,
  sqliteStores,
  startPostgresServer,
} from '../../testing/internal/index.ts';
import {
  PostgresWebhookOutbox,
  SqliteWebhookOutbox,
  type WebhookOutbox,
  webhookMigrations,
} from '../../webhooks/index.ts';
import { PostgresRunStore } from './postgres-run-store.ts';
import { runMigrations } from './run-migrations.ts';
import type { RunStore } from './run-store.ts';
import { type OpenedRunStore, runStoreConformance } from './run-store-conformance.ts';
import { SqliteRunStore } from './sqlite-run-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The runs and the webhook outbox on one database, as the stores the suite reads. */
async function withOutbox(
  opened: OpenedStores<{ runs: RunStore; outbox: WebhookOutbox }>,
): Promise<OpenedRunStore> {
  return {
    store: opened.store.runs,
    outbox: opened.store.outbox,
    another: async () => (await opened.another()).runs,
    close: opened.close,
  };
}

runStoreConformance('sqlite', () =>
  withOutbox(
    sqliteStores(root, (database) => ({
      runs: new SqliteRunStore(database),
      outbox: new SqliteWebhookOutbox(database),
    })),
  ),
);

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

runStoreConformance('postgres', async () =>
  withOutbox(
    await postgresStores(server, [...runMigrations, ...webhookMigrations], (pool) => ({
      runs: new PostgresRunStore(pool),
      outbox: new PostgresWebhookOutbox(pool),
    })),
  ),
);

describe('sqlite run store', () => {
  it("lists a session's runs through the session index, never walking the owner's runs", async () => {
    const database = new DatabaseSync(join(root, 'plan.db'));
    try {
      const store = new SqliteRunStore(database);
      // The statements the store prepares, each explained as SQLite would run it.
      const statements: string[] = [];
      const prepare = database.prepare.bind(database);
      database.prepare = (sql: string) => {
        statements.push(sql);
        return prepare(sql);
      };
      await store.list({ owner: 'alice', sessionId: 's', limit: 1 });
      database.prepare = prepare;
      const sql = statements.find((statement) => statement.includes('FROM server_runs'));
      assert.ok(sql);
      const plan = (
        database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('alice', 's', 1) as Array<{
          detail: string;
        }>
      )
        .map((row) => row.detail)
        .join('; ');
      assert.match(plan, /server_runs_session/);
      assert.doesNotMatch(plan, /server_runs_owner/);
    } finally {
      database.close();
    }
  });
});
