import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StoreUnavailableError } from '../../core/index.ts';
import {
  openSqliteDatabase,
  type PostgresServer,
  postgresStores,
  sqliteStores,
  startPostgresServer,
} from '../../testing/internal/index.ts';
import { guardrailVaultMigrations } from './guardrail-vault-migrations.ts';
import { guardrailVaultStoreConformance } from './guardrail-vault-store-conformance.ts';
import { PostgresGuardrailVaultStore } from './postgres-guardrail-vault-store.ts';
import { SqliteGuardrailVaultStore } from './sqlite-guardrail-vault-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-vault-'));
after(() => rmSync(root, { recursive: true, force: true }));

guardrailVaultStoreConformance('sqlite', () =>
  sqliteStores(root, (database) => new SqliteGuardrailVaultStore(database)),
);

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

guardrailVaultStoreConformance('postgres', () =>
  postgresStores(server, guardrailVaultMigrations, (pool) => new PostgresGuardrailVaultStore(pool)),
);

describe('the SQLite vaults on a full disk', () => {
  it('fail with store_unavailable naming the file, never the value', async () => {
    const path = join(mkdtempSync(join(root, 'full-')), 'threads.sqlite');
    const database = openSqliteDatabase(path);
    try {
      const vaults = new SqliteGuardrailVaultStore(database);
      // The file may not grow by a page: as good as a full disk for SQLite.
      const { page_count } = database.prepare('PRAGMA page_count').get() as { page_count: number };
      database.exec(`PRAGMA max_page_count = ${page_count}`);
      const secret = `hong${'x'.repeat(8000)}@example.com`;
      await assert.rejects(
        vaults.add('s1', [{ placeholder: '[EMAIL_1]', kind: 'email', value: secret }]),
        (error: unknown) =>
          error instanceof StoreUnavailableError &&
          error.message.includes(path) &&
          !error.message.includes('hong') &&
          !String((error.cause as Error | undefined)?.message).includes('hong'),
      );
      assert.deepEqual(await vaults.load('s1'), []);
    } finally {
      database.close();
    }
  });
});
