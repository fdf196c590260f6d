import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeOpenSearch } from '../testing/internal/index.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { OpenSearchRetriever } from './opensearch-retriever.ts';
import { resolveSearchBackend } from './resolve-search-backend.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';
import type { SearchHealth } from './types.ts';

describe('resolveSearchBackend', () => {
  it('uses the store’s own index when YEOUL_SEARCH_URL is unset, and never opens the document store', async () => {
    let storeOpened = false;
    const backend = await resolveSearchBackend(
      {},
      {
        openLocal: () => new SqliteRetriever(),
        openStore: () => {
          storeOpened = true;
          return new SqliteDocumentStore();
        },
      },
    );
    assert.ok(backend.retriever instanceof SqliteRetriever);
    assert.equal(storeOpened, false);
    assert.deepEqual(backend.health(), { backend: 'sqlite', state: 'ok' });
    await backend.close();
  });

  it('uses an OpenSearch cluster for opensearch:URL and reports its state changes', async (t) => {
    const fake = await startFakeOpenSearch();
    t.after(() => fake.close());
    const changes: SearchHealth[] = [];
    const backend = await resolveSearchBackend(
      { YEOUL_SEARCH_URL: `opensearch:${fake.url}` },
      {
        openLocal: () => assert.fail('the local retriever is not opened'),
        openStore: () => new SqliteDocumentStore(),
        onStateChange: (health) => changes.push(health),
        retryIntervalMs: 0,
      },
    );
    assert.ok(backend.retriever instanceof OpenSearchRetriever);
    const knowledge = new KnowledgeBase(backend.retriever);
    await knowledge.addDocuments([{ id: 'a', text: 'Parking permits come from the front desk.' }]);
    assert.equal((await knowledge.search('parking permit'))[0]?.documentId, 'a');
    await fake.stop();
    await assert.rejects(knowledge.search('parking'), { code: 'search_unavailable' });
    await fake.start();
    await (backend.retriever as OpenSearchRetriever).monitor.check();
    assert.deepEqual(
      changes.map((health) => health.state),
      ['unavailable', 'ok'],
    );
    assert.equal(backend.health().backend, 'opensearch');
    await backend.close();
  });
});
