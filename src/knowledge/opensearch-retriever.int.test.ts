import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Embedder } from '../models/index.ts';
import {
  type FakeOpenSearch,
  fakeEmbedding,
  startFakeOpenSearch,
} from '../testing/internal/index.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { readSearchSettings } from './opensearch/search-settings.ts';
import { OpenSearchRetriever } from './opensearch-retriever.ts';
import { retrieverConformance } from './retriever-conformance.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-opensearch-'));
let fake: FakeOpenSearch;
before(async () => {
  fake = await startFakeOpenSearch();
});
after(async () => {
  await fake.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A deterministic embedder (character trigrams hashed into 64 dimensions). */
const trigramEmbedder: Embedder = {
  name: 'fake:trigram',
  embed: async (texts) => texts.map((text) => fakeEmbedding(text, 64)),
};

let counter = 0;
let current = { index: '', path: '' };
const open = (embedder?: Embedder) =>
  OpenSearchRetriever.open({
    settings: readSearchSettings({
      YEOUL_SEARCH_URL: `opensearch:${fake.url}?index=${current.index}`,
    }) as NonNullable<ReturnType<typeof readSearchSettings>>,
    store: new SqliteDocumentStore({ path: current.path }),
    embedder,
    retryIntervalMs: 0,
  });
const fresh = (embedder?: Embedder) => {
  counter += 1;
  current = { index: `kb-${counter}`, path: join(directory, `kb-${counter}.sqlite`) };
  return open(embedder);
};

retrieverConformance(
  'opensearch',
  () => fresh(),
  () => open(),
);
retrieverConformance(
  'opensearch with vectors',
  () => fresh(trigramEmbedder),
  () => open(trigramEmbedder),
);

describe('opensearch retriever on the wire', () => {
  it('puts one index behind the alias when instances start together on an empty cluster', async () => {
    counter += 1;
    current = { index: `kb-${counter}`, path: join(directory, `kb-${counter}.sqlite`) };
    const started = await Promise.all([
      open(),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => open()),
    ]);
    const aliases = (await (await fetch(`${fake.url}/_alias/${current.index}`)).json()) as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(aliases), [`${current.index}-v1-0`]);
    await Promise.all(started.map((retriever) => retriever.close()));
  });

  it('creates its index behind an alias with the versioned CJK settings and mappings', async () => {
    const first = fake.requests.length;
    const retriever = await fresh();
    const created = fake.requests.slice(first);
    assert.deepEqual(
      created.map((request) => `${request.method} ${request.path}`),
      ['GET /_cat/plugins', `GET /_alias/${current.index}`, `PUT ${created[2]?.path}`],
    );
    assert.match(created[2]?.path ?? '', new RegExp(`^/${current.index}-v1-\\d+$`));
    const body = created[2]?.json() as Record<string, Record<string, unknown>>;
    assert.deepEqual(body.aliases, { [current.index]: {} });
    assert.deepEqual(body.settings, {
      index: {
        analysis: {
          char_filter: {
            yeoul_script_boundary: {
              type: 'pattern_replace',
              pattern: '(?<=[A-Za-z0-9])(?=[가-힣])|(?<=[가-힣])(?=[A-Za-z0-9])',
              replacement: ' ',
            },
          },
          filter: {
            yeoul_english_stop: { type: 'stop', stopwords: '_english_' },
            yeoul_english_stemmer: { type: 'stemmer', language: 'minimal_english' },
          },
          analyzer: {
            yeoul_text: {
              type: 'custom',
              char_filter: ['yeoul_script_boundary'],
              tokenizer: 'standard',
              filter: [
                'cjk_width',
                'lowercase',
                'cjk_bigram',
                'yeoul_english_stop',
                'yeoul_english_stemmer',
              ],
            },
          },
        },
      },
    });
    const { _meta, ...mappings } = body.mappings as { _meta: { yeoul: Record<string, unknown> } };
    assert.deepEqual(mappings, {
      dynamic: 'strict',
      _source: { excludes: ['body', 'embedding'] },
      properties: {
        documentId: { type: 'keyword' },
        chunkId: { type: 'keyword' },
        position: { type: 'integer' },
        ticket: { type: 'long' },
        title: { type: 'text', analyzer: 'yeoul_text' },
        heading: { type: 'text', index: false },
        text: { type: 'text', index: false },
        body: { type: 'text', analyzer: 'yeoul_text' },
        metadata: { type: 'object', enabled: false },
      },
    });
    assert.equal(_meta.yeoul.schema, 1);
    assert.equal(_meta.yeoul.analysis, 'cjk');
    assert.equal(_meta.yeoul.embedding, null);
    assert.match(String(_meta.yeoul.fingerprint), /^[0-9a-f]{16}$/);
    await retriever.close();
  });

  it('adds a knn_vector field (HNSW, cosine, lucene) sized by the embedder', async () => {
    const first = fake.requests.length;
    const retriever = await fresh(trigramEmbedder);
    const put = fake.requests.slice(first).find((request) => request.method === 'PUT');
    const body = put?.json() as {
      settings: { index: Record<string, unknown> };
      mappings: { properties: Record<string, unknown>; _meta: { yeoul: { embedding: unknown } } };
    };
    assert.equal(body.settings.index.knn, true);
    assert.deepEqual(body.mappings.properties.embedding, {
      type: 'knn_vector',
      dimension: 64,
      method: {
        name: 'hnsw',
        space_type: 'cosinesimil',
        engine: 'lucene',
        parameters: { m: 16, ef_construction: 128 },
      },
    });
    assert.deepEqual(body.mappings._meta.yeoul.embedding, {
      model: 'fake:trigram',
      dimensions: 64,
    });
    await retriever.close();
  });

  it('indexes chunks with one versioned _bulk and searches with multi_match over title^2 and body', async () => {
    const retriever = await fresh();
    const knowledge = new KnowledgeBase(retriever, { now: () => 1_700_000_000_000 });
    const first = fake.requests.length;
    await knowledge.addDocuments([
      { id: 'leave', title: '휴가 정책', text: '# 병가\n\n병가는 연 10일까지 쓸 수 있습니다.' },
    ]);
    const [bulk, ...rest] = fake.requests.slice(first);
    assert.equal(rest.length, 0, 'one request for a new document');
    assert.equal(
      `${bulk?.method} ${bulk?.path}?${bulk?.query}`,
      `PUT /${current.index}/_bulk?refresh=wait_for&require_alias=true`,
    );
    assert.equal(bulk?.headers['content-type'], 'application/x-ndjson');
    const [action, source] = (bulk?.lines() ?? []) as [
      Record<string, Record<string, unknown>>,
      Record<string, unknown>,
    ];
    const ticket = action.index?.version as number;
    assert.ok(ticket >= 1_700_000_000_000_000);
    assert.deepEqual(action, {
      index: { _id: 'leave#0', version: ticket, version_type: 'external' },
    });
    assert.deepEqual(source, {
      documentId: 'leave',
      chunkId: 'leave#0',
      position: 0,
      ticket,
      title: '휴가 정책',
      heading: '병가',
      text: '병가는 연 10일까지 쓸 수 있습니다.',
      body: '병가\n병가는 연 10일까지 쓸 수 있습니다.',
      metadata: {},
    });
    const searchedAt = fake.requests.length;
    const hits = await retriever.search('병가는 며칠인가요?', { k: 3 });
    assert.equal(hits[0]?.chunkId, 'leave#0');
    const search = fake.requests[searchedAt];
    assert.equal(`${search?.method} ${search?.path}`, `POST /${current.index}/_search`);
    assert.deepEqual(search?.json(), {
      size: 3,
      _source: ['documentId', 'chunkId', 'title', 'heading', 'text', 'metadata'],
      query: {
        multi_match: {
          query: '병가 며칠 칠인 인가 가요',
          type: 'most_fields',
          fields: ['title^2', 'body'],
        },
      },
    });
    await retriever.close();
  });

  it('finds a Hangul word glued to Latin letters or digits, as the embedded index does', async () => {
    const retriever = await fresh();
    await new KnowledgeBase(retriever).addDocuments([
      { id: 'chip', text: 'SK하이닉스는 2024년 3분기에 최대 실적을 냈습니다.' },
      { id: 'other', text: '삼성전자는 반도체를 만듭니다.' },
    ]);
    assert.equal((await retriever.search('하이닉스 실적'))[0]?.documentId, 'chip');
    await retriever.close();
  });

  it('sends a knn query beside the keyword query when an embedder is configured', async () => {
    const retriever = await fresh(trigramEmbedder);
    await new KnowledgeBase(retriever).addDocuments([
      { id: 'a', text: 'The quarterly budget review.' },
    ]);
    const first = fake.requests.length;
    await retriever.search('budget', { k: 2 });
    const bodies = fake.requests
      .slice(first)
      .map((request) => request.json() as Record<string, unknown>);
    const knn = bodies.find((body) => 'knn' in (body.query as object)) as {
      size: number;
      query: { knn: { embedding: { vector: number[]; k: number } } };
    };
    assert.equal(knn.size, 50);
    assert.equal(knn.query.knn.embedding.k, 50);
    assert.deepEqual(knn.query.knn.embedding.vector, fakeEmbedding('budget', 64));
    assert.ok(bodies.some((body) => 'multi_match' in (body.query as object)));
    await retriever.close();
  });

  it('removes an updated document’s older chunks and a deleted document with _delete_by_query', async () => {
    const retriever = await fresh();
    const knowledge = new KnowledgeBase(retriever);
    await knowledge.addDocuments([{ id: 'd', text: '# A\n\nalpha\n\n# B\n\nbeta' }]);
    const first = fake.requests.length;
    await knowledge.addDocuments([{ id: 'd', text: 'gamma only' }]);
    const cleanup = fake.requests
      .slice(first)
      .find((request) => request.path.endsWith('_delete_by_query'));
    assert.equal(cleanup?.query.toString(), 'refresh=true&conflicts=proceed');
    const [action] = (fake.requests[first]?.lines() ?? []) as Array<{ index: { version: number } }>;
    const ticket = action?.index.version;
    assert.deepEqual(cleanup?.json(), {
      query: {
        bool: { filter: [{ term: { documentId: 'd' } }, { range: { ticket: { lt: ticket } } }] },
      },
    });
    assert.deepEqual(await retriever.search('beta'), []);
    const deletedAt = fake.requests.length;
    assert.equal(await knowledge.deleteDocument('d'), true);
    assert.deepEqual(fake.requests[deletedAt]?.json(), { query: { term: { documentId: 'd' } } });
    assert.deepEqual(await retriever.search('gamma'), []);
    await retriever.close();
  });
});
