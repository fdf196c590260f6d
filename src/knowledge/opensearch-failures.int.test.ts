import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Embedder } from '../models/index.ts';
import {
  type FakeOpenSearch,
  fakeEmbedding,
  startFakeOpenSearch,
} from '../testing/internal/index.ts';
import { type IngestProgress, KnowledgeBase } from './knowledge-base.ts';
import { readSearchSettings } from './opensearch/search-settings.ts';
import { OpenSearchRetriever, type OpenSearchRetrieverOptions } from './opensearch-retriever.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';

let fake: FakeOpenSearch;
before(async () => {
  fake = await startFakeOpenSearch();
});
after(() => fake.close());

let counter = 0;
const settingsFor = (url: string, index: string) =>
  readSearchSettings({ YEOUL_SEARCH_URL: `opensearch:${url}?index=${index}` }) as NonNullable<
    ReturnType<typeof readSearchSettings>
  >;
const openRetriever = (overrides: Partial<OpenSearchRetrieverOptions> = {}) => {
  counter += 1;
  return OpenSearchRetriever.open({
    settings: settingsFor(fake.url, `failures-${counter}`),
    store: new SqliteDocumentStore(),
    retryIntervalMs: 0,
    recheckMs: 0,
    ...overrides,
  });
};
const handbook = {
  id: 'handbook',
  title: 'Handbook',
  text: '# Travel\n\nThe travel allowance is 50,000 won per day.\n\n# Parking\n\nParking permits are issued by the front desk.',
};

describe('opensearch retriever when the cluster refuses or fails', () => {
  it('reports a document whose chunk the cluster refused as failed, keeps it pending, and indexes it on the next ingest', async () => {
    const retriever = await openRetriever();
    const knowledge = new KnowledgeBase(retriever);
    fake.failBulkItems({ match: (item) => item.id === 'handbook#1' });
    const statuses: IngestProgress['document']['status'][] = [];
    const result = await knowledge.addDocuments([handbook], (progress) =>
      statuses.push(progress.document.status),
    );
    assert.deepEqual(result.ids, []);
    assert.deepEqual(statuses, ['failed']);
    assert.match(result.failed[0]?.error ?? '', /429 es_rejected_execution_exception/);
    assert.equal((await retriever.getDocument('handbook'))?.indexPending, true);
    assert.deepEqual(await retriever.search('parking permits'), []);

    const next = await knowledge.addDocuments([{ id: 'other', text: 'Lunch is at noon.' }]);
    assert.deepEqual(next.ids, ['other']);
    assert.equal((await retriever.getDocument('handbook'))?.indexPending, undefined);
    assert.equal((await retriever.search('parking permits'))[0]?.chunkId, 'handbook#1');
    assert.deepEqual((await knowledge.addDocuments([handbook])).unchanged, ['handbook']);
    await retriever.close();
  });

  it('writes a pending document again when the same content is ingested again', async () => {
    const retriever = await openRetriever();
    const knowledge = new KnowledgeBase(retriever);
    fake.failBulkItems({ match: (item) => item.id.startsWith('handbook#') });
    assert.equal((await knowledge.addDocuments([handbook])).failed.length, 1);
    const again = await knowledge.addDocuments([handbook]);
    assert.deepEqual([again.ids, again.unchanged, again.failed], [['handbook'], [], []]);
    assert.equal((await retriever.search('travel allowance'))[0]?.documentId, 'handbook');
    await retriever.close();
  });

  it('throws search_unavailable while the cluster is down and answers again once it is back, without a restart', async () => {
    const retriever = await openRetriever();
    const knowledge = new KnowledgeBase(retriever);
    await knowledge.addDocuments([handbook]);
    await fake.stop();
    try {
      await assert.rejects(retriever.search('travel allowance'), { code: 'search_unavailable' });
      const health = retriever.health();
      assert.equal(health.state, 'unavailable');
      assert.match(health.lastError?.message ?? '', /no connection/);
      const during = await knowledge.addDocuments([
        { id: 'late', text: 'Badges open the garage.' },
      ]);
      assert.deepEqual([during.ids, during.failed.length], [[], 1]);
      assert.equal((await retriever.getDocument('late'))?.indexPending, true);
    } finally {
      await fake.start();
    }
    assert.equal((await retriever.search('travel allowance'))[0]?.documentId, 'handbook');
    assert.equal(retriever.health().state, 'ok');
    await retriever.retryPending();
    assert.equal((await retriever.search('garage badges'))[0]?.documentId, 'late');
    await retriever.close();
  });

  it('retries pending documents on its timer once the cluster is back', async () => {
    const retriever = await openRetriever({ retryIntervalMs: 20 });
    await fake.stop();
    const result = await new KnowledgeBase(retriever).addDocuments([handbook]);
    assert.equal(result.failed.length, 1);
    await fake.start();
    for (
      let attempt = 0;
      attempt < 100 && (await retriever.getDocument('handbook'))?.indexPending;
      attempt += 1
    )
      await delay(20);
    assert.equal((await retriever.getDocument('handbook'))?.indexPending, undefined);
    assert.equal((await retriever.search('parking'))[0]?.documentId, 'handbook');
    await retriever.close();
  });

  it('makes search unavailable while the index is red and recovers when it turns green', async () => {
    const retriever = await openRetriever();
    await new KnowledgeBase(retriever).addDocuments([handbook]);
    fake.setHealth('red');
    try {
      await assert.rejects(retriever.search('parking'), { code: 'search_unavailable' });
      assert.equal((await retriever.monitor.check()).state, 'unavailable');
      assert.match(retriever.health().lastError?.message ?? '', /red/);
    } finally {
      fake.setHealth('green');
    }
    assert.equal((await retriever.search('parking'))[0]?.documentId, 'handbook');
    assert.equal(retriever.health().state, 'ok');
    await retriever.close();
  });

  it('creates a lost index again and refills it from the store, without a restart', async () => {
    const retriever = await openRetriever();
    await new KnowledgeBase(retriever).addDocuments([handbook]);
    const [lost] = fake.cluster.resolve(`failures-${counter}`);
    await fetch(`${fake.url}/${lost?.name}`, { method: 'DELETE' });
    await assert.rejects(retriever.search('parking'), { code: 'search_unavailable' });
    assert.match(retriever.health().lastError?.message ?? '', /index_not_found_exception/);
    await retriever.search('parking'); // answers again: a new, empty index is being refilled
    assert.equal(fake.cluster.resolve(`failures-${counter}`).length, 1);
    await retriever.retryPending();
    assert.equal((await retriever.search('parking'))[0]?.documentId, 'handbook');
    await retriever.close();
  });

  it('hides a deleted document from search while the cluster has not taken the delete yet', async () => {
    const retriever = await openRetriever();
    const knowledge = new KnowledgeBase(retriever);
    await knowledge.addDocuments([handbook]);
    await fake.stop();
    assert.equal(await knowledge.deleteDocument('handbook'), true);
    await fake.start();
    assert.deepEqual(await retriever.search('parking permits'), []);
    await retriever.retryPending();
    const deletes = fake.requests.filter((request) => request.path.endsWith('_delete_by_query'));
    assert.deepEqual(deletes.at(-1)?.json(), { query: { term: { documentId: 'handbook' } } });
    await retriever.close();
  });
});

describe('opensearch retriever at start', () => {
  it('refuses an index built for another embedding model, naming yeoul reindex', async () => {
    const embedder: Embedder = {
      name: 'fake:trigram',
      embed: async (texts) => texts.map((text) => fakeEmbedding(text, 16)),
    };
    const first = await openRetriever({ embedder });
    await first.close();
    await assert.rejects(
      OpenSearchRetriever.open({
        settings: settingsFor(fake.url, `failures-${counter}`),
        store: new SqliteDocumentStore(),
        retryIntervalMs: 0,
      }),
      (error: Error & { code?: string }) =>
        error.code === 'search_index_mismatch' &&
        /vectors come from fake:trigram, but YEOUL_EMBEDDING_MODEL is unset/.test(error.message) &&
        /yeoul reindex/.test(error.message),
    );
  });

  it('refuses an index of the alias’s name that Yeoul did not make', async () => {
    const response = await fetch(`${fake.url}/not-an-alias`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mappings: { dynamic: 'strict', properties: {} } }),
    });
    assert.equal(response.status, 200);
    await assert.rejects(
      OpenSearchRetriever.open({
        settings: settingsFor(fake.url, 'not-an-alias'),
        store: new SqliteDocumentStore(),
        retryIntervalMs: 0,
      }),
      { code: 'search_index_mismatch' },
    );
  });

  it('starts while the cluster is down and creates its index once it is reachable', async (t) => {
    const own = await startFakeOpenSearch();
    t.after(() => own.close());
    await own.stop();
    const retriever = await OpenSearchRetriever.open({
      settings: settingsFor(own.url, 'late-start'),
      store: new SqliteDocumentStore(),
      retryIntervalMs: 0,
      recheckMs: 0,
    });
    assert.equal(retriever.health().state, 'unavailable');
    await assert.rejects(retriever.search('anything'), { code: 'search_unavailable' });
    await own.start();
    assert.deepEqual(await retriever.search('anything'), []);
    assert.deepEqual(
      [...own.cluster.indexes.values()].map((index) => [...index.aliases]),
      [['late-start']],
    );
    await retriever.close();
  });

  it('asks for the nori analyzer when the cluster lists analysis-nori (which the fake refuses to emulate)', async (t) => {
    const own = await startFakeOpenSearch({ plugins: ['opensearch-knn', 'analysis-nori'] });
    t.after(() => own.close());
    await assert.rejects(
      OpenSearchRetriever.open({
        settings: settingsFor(own.url, 'nori'),
        store: new SqliteDocumentStore(),
      }),
      /OpenSearch refused Yeoul's request \(400 illegal_argument_exception: fake-opensearch does not implement analyzer \[yeoul_text\] with tokenizer \[nori_tokenizer\]\)/,
    );
    const put = own.requests.find((request) => request.method === 'PUT');
    const body = (put?.json() ?? {}) as { settings?: { index?: { analysis?: unknown } } };
    const analysis = body.settings?.index?.analysis;
    assert.deepEqual(analysis, {
      tokenizer: { yeoul_nori: { type: 'nori_tokenizer', decompound_mode: 'mixed' } },
      filter: { yeoul_english_stemmer: { type: 'stemmer', language: 'minimal_english' } },
      analyzer: {
        yeoul_text: {
          type: 'custom',
          tokenizer: 'yeoul_nori',
          filter: ['nori_part_of_speech', 'nori_readingform', 'lowercase', 'yeoul_english_stemmer'],
        },
      },
    });
  });

  it('signs in with the URL’s user info and refuses to start with wrong credentials', async (t) => {
    const own = await startFakeOpenSearch({ auth: { username: 'yeoul', password: 'p@ss' } });
    t.after(() => own.close());
    const port = new URL(own.url).port;
    const signedIn = await OpenSearchRetriever.open({
      settings: settingsFor(`http://yeoul:p%40ss@127.0.0.1:${port}`, 'auth'),
      store: new SqliteDocumentStore(),
      retryIntervalMs: 0,
    });
    assert.equal(
      own.requests[0]?.headers.authorization,
      `Basic ${Buffer.from('yeoul:p@ss').toString('base64')}`,
    );
    await signedIn.close();
    await assert.rejects(
      OpenSearchRetriever.open({
        settings: settingsFor(`http://yeoul:wrong@127.0.0.1:${port}`, 'auth'),
        store: new SqliteDocumentStore(),
        retryIntervalMs: 0,
      }),
      { code: 'search_config_invalid', message: /OpenSearch refused the credentials \(401\)/ },
    );
  });
});
