import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../core/index.ts';
import {
  type FakeOpenSearch,
  type PostgresServer,
  startFakeOpenSearch,
  startPostgresServer,
} from '../testing/internal/index.ts';
import { documentStoreConformance } from './document-store-conformance.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { readSearchSettings } from './opensearch/search-settings.ts';
import { OpenSearchRetriever } from './opensearch-retriever.ts';
import { PostgresDocumentStore } from './postgres-document-store.ts';
import { knowledgeMigrations } from './postgres-migrations.ts';
import { PostgresRetriever } from './postgres-retriever.ts';
import { chunkOf, retrieverConformance, storedDocument } from './retriever-conformance.ts';

let server: PostgresServer;
let fake: FakeOpenSearch;
const pools: PostgresPool[] = [];
before(async () => {
  [server, fake] = await Promise.all([startPostgresServer(), startFakeOpenSearch()]);
});
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await fake.close();
  await server.stop();
});

/** A pool (closed after the tests) on `url`. */
async function poolOn(url: string): Promise<PostgresPool> {
  const pool = await createPostgresPool({ url });
  pools.push(pool);
  return pool;
}

/** A pool on a fresh database with the knowledge schema. */
async function migratedPool(url?: string): Promise<PostgresPool> {
  const pool = await poolOn(url ?? (await server.createDatabase()));
  await applyMigrations(pool, knowledgeMigrations);
  return pool;
}

documentStoreConformance(
  'postgres',
  async (now) => new PostgresDocumentStore(await migratedPool(), now ? { now } : {}),
);

let counter = 0;
let current: { index: string; pool: PostgresPool | undefined } = { index: '', pool: undefined };
const openOnPostgres = () =>
  OpenSearchRetriever.open({
    settings: readSearchSettings({
      YEOUL_SEARCH_URL: `opensearch:${fake.url}?index=${current.index}`,
    }) as NonNullable<ReturnType<typeof readSearchSettings>>,
    store: new PostgresDocumentStore(current.pool as PostgresPool),
    retryIntervalMs: 0,
  });
retrieverConformance(
  'opensearch over postgres',
  async () => {
    counter += 1;
    current = { index: `kb-pg-${counter}`, pool: await migratedPool() };
    return openOnPostgres();
  },
  openOnPostgres,
);

describe('postgres document store', () => {
  it('gives every write of one document a distinct, growing ticket when two instances write at once', async () => {
    const url = await server.createDatabase();
    const pool = await migratedPool(url);
    const other = await poolOn(url);
    const stores = [new PostgresDocumentStore(pool), new PostgresDocumentStore(other)];
    const tickets = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        stores[index % 2]?.writeDocument(storedDocument('shared'), [
          chunkOf('shared', 0, `version ${index}`),
        ]),
      ),
    );
    assert.equal(new Set(tickets).size, 20);
    assert.equal(await stores[0]?.ticketOf('shared'), Math.max(...(tickets as number[])));
    assert.equal((await stores[1]?.pendingWrites(10))?.length, 1);
  });

  it('shares its tables with PostgresRetriever both ways', async () => {
    const pool = await migratedPool();
    const embedded = new PostgresRetriever(pool);
    await new KnowledgeBase(embedded).addDocuments([
      { id: 'old', text: 'The fleet manager approves parking.' },
    ]);
    const store = new PostgresDocumentStore(pool);
    assert.deepEqual(
      (await store.listDocuments()).map((document) => document.id),
      ['old'],
    );
    await store.writeDocument(storedDocument('old'), [
      chunkOf('old', 0, 'Badges open the garage.'),
    ]);
    await store.writeDocument(storedDocument('new'), [
      chunkOf('new', 0, 'Lunch is served at noon.'),
    ]);
    assert.deepEqual(await embedded.search('fleet parking'), []);
    assert.equal((await embedded.search('garage badges'))[0]?.documentId, 'old');
    assert.equal((await embedded.search('lunch'))[0]?.documentId, 'new');
  });
});
