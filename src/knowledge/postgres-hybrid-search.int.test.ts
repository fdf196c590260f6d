import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../core/index.ts';
import { resolveEmbedder } from '../models/index.ts';
import {
  type FakeOpenAiServer,
  type PostgresServer,
  startFakeOpenAiServer,
  startPostgresServer,
} from '../testing/internal/index.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { knowledgeMigrations } from './postgres-migrations.ts';
import { PostgresRetriever } from './postgres-retriever.ts';
import { chunkOf, retrieverConformance, storedDocument } from './retriever-conformance.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

let server: PostgresServer;
let fake: FakeOpenAiServer;
before(async () => {
  [server, fake] = await Promise.all([
    startPostgresServer(),
    startFakeOpenAiServer([{ kind: 'text', text: 'unused' }]),
  ]);
});
after(async () => {
  await fake.close();
  await server.stop();
});

const embedder = () =>
  resolveEmbedder({
    YEOUL_EMBEDDING_MODEL: 'openai:text-embedding-test',
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: fake.baseUrl,
  });

/** A fresh database with the knowledge schema; returns its URL. */
async function migratedDatabase(): Promise<string> {
  const url = await server.createDatabase();
  const pool = await createPostgresPool({ url });
  await applyMigrations(pool, knowledgeMigrations);
  await pool.end();
  return url;
}

let current = '';
retrieverConformance(
  'postgres with vectors',
  async () => {
    current = await migratedDatabase();
    return PostgresRetriever.connect({ url: current }, { embedder: embedder() });
  },
  () => PostgresRetriever.connect({ url: current }, { embedder: embedder() }),
);

const documents = [
  { id: 'review', text: 'The quarterly budget review happens in March.' },
  { id: 'lunch', text: 'Lunch is served from noon in the cafeteria.' },
  {
    id: 'leave',
    title: '휴가 정책',
    text: '연차는 입사 첫해에 15일이 주어집니다. 병가는 연 10일입니다.',
  },
  {
    id: 'travel',
    title: '출장 규정',
    text: '출장비는 하루 5만 원입니다. Travel budgets are reviewed yearly.',
  },
];

describe('PostgreSQL hybrid retrieval', () => {
  let pool: PostgresPool;
  before(async () => {
    pool = await createPostgresPool({ url: await migratedDatabase() });
  });
  after(() => pool.end());

  it('finds a passage by exact cosine when no keyword matches, without pgvector', async () => {
    const retriever = new PostgresRetriever(pool, { embedder: embedder() });
    await new KnowledgeBase(retriever).addDocuments(documents);
    const hits = await retriever.search('quartrly budgett reveiw', { k: 2 });
    assert.equal(hits[0]?.documentId, 'review');
    const { rows } = await pool.query(
      "SELECT array_length(embedding, 1) AS size, embedding_norm > 0 AS normed FROM kb_chunks WHERE document_id = 'review'",
    );
    assert.deepEqual(rows, [{ size: 256, normed: true }]);
  });

  it('fuses keyword and vector rankings into the order SQLite gives', async () => {
    const postgres = new PostgresRetriever(pool, { embedder: embedder() });
    const sqlite = new SqliteRetriever({ embedder: embedder() });
    await new KnowledgeBase(postgres).addDocuments(documents);
    await new KnowledgeBase(sqlite).addDocuments(documents);
    for (const query of ['budget review', '병가 며칠', 'cafeteria noon lunch', '출장비 budgets']) {
      const expected = await sqlite.search(query, { k: 4 });
      const actual = await postgres.search(query, { k: 4 });
      assert.deepEqual(
        actual.map((hit) => [hit.chunkId, hit.score.toFixed(9)]),
        expected.map((hit) => [hit.chunkId, hit.score.toFixed(9)]),
        query,
      );
    }
    await sqlite.close();
  });

  it('deletes a document’s vectors with its chunks', async () => {
    const retriever = new PostgresRetriever(pool, { embedder: embedder() });
    await new KnowledgeBase(retriever).addDocuments(documents);
    await retriever.deleteDocument('lunch');
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM kb_chunks WHERE embedding IS NOT NULL AND document_id = 'lunch'",
    );
    assert.equal(rows[0]?.n, 0);
    assert.ok(
      (await retriever.search('cafeteria noon')).every((hit) => hit.documentId !== 'lunch'),
    );
  });

  it('refuses vectors of another size than those stored', async () => {
    const other = new PostgresRetriever(pool, {
      embedder: { name: 'other', embed: async (texts) => texts.map(() => [1, 0, 0]) },
    });
    await new PostgresRetriever(pool, { embedder: embedder() }).upsertDocument(
      storedDocument('a'),
      [chunkOf('a', 0, 'alpha')],
    );
    await assert.rejects(other.upsertDocument(storedDocument('b'), [chunkOf('b', 0, 'beta')]), {
      code: 'embedding_mismatch',
    });
  });
});
