import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import {
  applyMigrations,
  createPostgresPool,
  type PostgresPool,
  StoreUnavailableError,
} from '../../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { guardrailVaultMigrations } from './guardrail-vault-migrations.ts';
import { guardrailVaultStoreConformance } from './guardrail-vault-store-conformance.ts';
import { PostgresGuardrailVaultStore } from './postgres-guardrail-vault-store.ts';
import { SqliteGuardrailVaultStore } from './sqlite-guardrail-vault-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-vault-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A connection to the data folder's database as the stores open it (WAL, a busy timeout). */
function openDatabase(path: string): DatabaseSync {
  const database = new DatabaseSync(path);
  database.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  return database;
}

guardrailVaultStoreConformance('sqlite', () => {
  const path = join(mkdtempSync(join(root, 'data-')), 'threads.sqlite');
  const databases = [openDatabase(path)];
  return {
    store: new SqliteGuardrailVaultStore(databases[0] as DatabaseSync),
    another: () => {
      const database = openDatabase(path);
      databases.push(database);
      return new SqliteGuardrailVaultStore(database);
    },
    close: () => {
      for (const database of databases) database.close();
    },
  };
});

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

guardrailVaultStoreConformance('postgres', async () => {
  const url = await server.createDatabase();
  const pools: PostgresPool[] = [await createPostgresPool({ url })];
  await applyMigrations(pools[0] as PostgresPool, guardrailVaultMigrations);
  return {
    store: new PostgresGuardrailVaultStore(pools[0] as PostgresPool),
    another: async () => {
      const pool = await createPostgresPool({ url });
      pools.push(pool);
      return new PostgresGuardrailVaultStore(pool);
    },
    close: async () => {
      for (const pool of pools) await pool.end();
    },
  };
});

describe('the SQLite vaults on a full disk', () => {
  it('fail with store_unavailable naming the file, never the value', async () => {
    const path = join(mkdtempSync(join(root, 'full-')), 'threads.sqlite');
    const database = openDatabase(path);
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
