import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveEmbedder } from '../models/index.ts';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../testing/internal/index.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { retrieverConformance } from './retriever-conformance.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-hybrid-'));
let fake: FakeOpenAiServer;
before(async () => {
  fake = await startFakeOpenAiServer([{ kind: 'text', text: 'unused' }]);
});
after(async () => {
  await fake.close();
  rmSync(directory, { recursive: true, force: true });
});

const embedder = () =>
  resolveEmbedder({
    YEOUL_EMBEDDING_MODEL: 'openai:text-embedding-test',
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: fake.baseUrl,
  });
let counter = 0;
let current = '';

retrieverConformance(
  'sqlite with vectors',
  () => {
    counter += 1;
    current = join(directory, `hybrid-${counter}.sqlite`);
    return new SqliteRetriever({ path: current, embedder: embedder() });
  },
  () => new SqliteRetriever({ path: current, embedder: embedder() }),
);

describe('hybrid retrieval', () => {
  it('embeds chunks in batches through the embedding API and stores their vectors', async () => {
    const retriever = new SqliteRetriever({ embedder: embedder() });
    const kb = new KnowledgeBase(retriever);
    const before = fake.embeddingRequests.length;
    await kb.addDocuments(
      Array.from({ length: 70 }, (_, index) => ({
        id: `d${index}`,
        text: `Document ${index} about topic ${index}.`,
      })),
    );
    const requests = fake.embeddingRequests.slice(before);
    assert.equal(requests.flat().length, 70);
    const vectors = retriever.database.prepare('SELECT count(*) AS n FROM kb_vectors').get() as {
      n: number;
    };
    assert.equal(vectors.n, 70);
    await kb.deleteDocument('d3');
    assert.equal(
      (retriever.database.prepare('SELECT count(*) AS n FROM kb_vectors').get() as { n: number }).n,
      69,
    );
    await retriever.close();
  });

  it('finds a passage by vector when no keyword matches (a misspelt query)', async () => {
    const retriever = new SqliteRetriever({ embedder: embedder() });
    const kb = new KnowledgeBase(retriever);
    await kb.addDocuments([
      { id: 'budget', text: 'The quarterly budget review happens in March.' },
      { id: 'lunch', text: 'Lunch is served from noon in the cafeteria.' },
    ]);
    const keywordOnly = new SqliteRetriever();
    await new KnowledgeBase(keywordOnly).addDocuments([
      { id: 'budget', text: 'The quarterly budget review happens in March.' },
    ]);
    assert.deepEqual(await keywordOnly.search('quartrly budgett reveiw'), []);
    const hits = await retriever.search('quartrly budgett reveiw', { k: 2 });
    assert.equal(hits[0]?.documentId, 'budget');
    await retriever.close();
    await keywordOnly.close();
  });

  it('refuses vectors of another size than those stored', async () => {
    const path = join(directory, 'mismatch.sqlite');
    const first = new SqliteRetriever({ path, embedder: embedder() });
    await new KnowledgeBase(first).addDocuments([{ id: 'a', text: 'alpha' }]);
    await first.close();
    const other = new SqliteRetriever({
      path,
      embedder: { name: 'other', embed: async (texts) => texts.map(() => [1, 0, 0]) },
    });
    await assert.rejects(new KnowledgeBase(other).addDocuments([{ id: 'b', text: 'beta' }]), {
      code: 'embedding_mismatch',
    });
    await other.close();
  });
});
