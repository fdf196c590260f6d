import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../testing/internal/index.ts';
import { knowledgeMigrations } from './postgres-migrations.ts';
import { PostgresRetriever } from './postgres-retriever.ts';
import { chunkOf, retrieverConformance, storedDocument } from './retriever-conformance.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

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
  'postgres',
  async () => {
    current = await migratedDatabase();
    return PostgresRetriever.connect({ url: current });
  },
  () => PostgresRetriever.connect({ url: current }),
);

async function sampleDocuments(retriever: { upsertDocument: PostgresRetriever['upsertDocument'] }) {
  await retriever.upsertDocument(
    storedDocument('vacation', { title: '휴가 정책', chunkCount: 2 }),
    [
      chunkOf(
        'vacation',
        0,
        '연차는 입사 첫해에 15일이 주어지며 병가는 연 10일까지 쓸 수 있습니다.',
        '휴가 정책 > 연차',
      ),
      chunkOf(
        'vacation',
        1,
        '출산휴가는 90일이며 배우자 출산휴가는 10일입니다.',
        '휴가 정책 > 출산',
      ),
    ],
  );
  await retriever.upsertDocument(storedDocument('budget', { title: 'Team budgets' }), [
    chunkOf(
      'budget',
      0,
      'The 2024 team budget is reviewed every quarter; budgets are reviewed again in March.',
    ),
  ]);
  await retriever.upsertDocument(storedDocument('travel', { title: '출장 규정' }), [
    chunkOf(
      'travel',
      0,
      '출장비는 하루 5만 원이며 휴가 중에는 지급되지 않습니다. Travel budget reviews happen yearly.',
    ),
  ]);
}

describe('PostgreSQL retriever', () => {
  let pool: PostgresPool;
  before(async () => {
    pool = await createPostgresPool({ url: await migratedDatabase() });
  });
  after(() => pool.end());

  it('scores every hit as SQLite’s FTS5 BM25 does, title weight included', async () => {
    const postgres = new PostgresRetriever(pool);
    const sqlite = new SqliteRetriever();
    await sampleDocuments(postgres);
    await sampleDocuments(sqlite);
    for (const query of [
      '휴가 며칠?',
      '출산휴가 배우자',
      'budgets reviewed budget',
      '출장 budget 휴가',
      '10일',
    ]) {
      const expected = await sqlite.search(query, { k: 10 });
      const actual = await postgres.search(query, { k: 10 });
      assert.deepEqual(
        actual.map((hit) => hit.chunkId),
        expected.map((hit) => hit.chunkId),
        query,
      );
      actual.forEach((hit, index) => {
        assert.ok(
          Math.abs(hit.score - (expected[index]?.score ?? 0)) < 1e-9,
          `${query}: ${hit.score}`,
        );
      });
    }
    await sqlite.close();
  });

  it('keeps the corpus statistics exact through replacements and deletions', async () => {
    const retriever = new PostgresRetriever(pool);
    await sampleDocuments(retriever);
    await retriever.upsertDocument(storedDocument('budget'), [
      chunkOf('budget', 0, 'Shorter now.'),
    ]);
    await retriever.deleteDocument('travel');
    const { rows } = await pool.query(
      `SELECT s.chunk_count::int AS kept_chunks, s.term_count::int AS kept_terms,
         (SELECT count(*)::int FROM kb_chunks) AS chunks,
         (SELECT coalesce(sum(term_count), 0)::int FROM kb_chunks) AS terms,
         (SELECT count(*)::int FROM kb_postings p LEFT JOIN kb_chunks c ON c.rowid = p.chunk_rowid WHERE c.rowid IS NULL) AS orphans
       FROM kb_statistics s`,
    );
    const row = rows[0];
    assert.equal(row.kept_chunks, row.chunks);
    assert.equal(row.kept_terms, row.terms);
    assert.equal(row.orphans, 0);
  });

  it('leaves the stored version whole when a write fails halfway', async () => {
    const retriever = new PostgresRetriever(pool);
    await sampleDocuments(retriever);
    const duplicateIds = [
      chunkOf('budget', 0, 'First new chunk.'),
      chunkOf('budget', 0, 'Same id again.'),
    ];
    await assert.rejects(
      retriever.upsertDocument(storedDocument('budget', { contentHash: 'new' }), duplicateIds),
    );
    assert.equal((await retriever.getDocument('budget'))?.contentHash, 'hash-budget');
    assert.equal((await retriever.search('reviewed every quarter'))[0]?.chunkId, 'budget#0');
  });

  it('finds through one instance what another just stored, and settles concurrent writes', async () => {
    const url = await migratedDatabase();
    const [first, second] = await Promise.all([
      PostgresRetriever.connect({ url }),
      PostgresRetriever.connect({ url }),
    ]);
    await first.upsertDocument(storedDocument('shared', { title: '공유 문서' }), [
      chunkOf('shared', 0, '다른 인스턴스에서도 바로 검색됩니다.'),
    ]);
    assert.equal((await second.search('인스턴스 검색'))[0]?.documentId, 'shared');
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? first : second).upsertDocument(
          storedDocument('shared', { contentHash: `v${index}` }),
          [chunkOf('shared', 0, `버전 ${index} 본문`), chunkOf('shared', 1, `버전 ${index} 부록`)],
        ),
      ),
    );
    const stored = await second.getDocument('shared');
    const hits = await first.search('버전 본문 부록', { k: 10 });
    assert.equal(hits.length, 2);
    assert.ok(hits.every((hit) => hit.text.includes(String(stored?.contentHash.slice(1)))));
    await Promise.all([first.close(), second.close()]);
  });

  it('answers store_unavailable when the database is unreachable', async () => {
    const retriever = await PostgresRetriever.connect({
      url: 'postgres://postgres@127.0.0.1:1/yeoul',
      connectionTimeoutMs: 2000,
    });
    const started = performance.now();
    await assert.rejects(retriever.search('휴가'), { code: 'store_unavailable' });
    await assert.rejects(retriever.upsertDocument(storedDocument('x'), [chunkOf('x', 0, 'x')]), {
      code: 'store_unavailable',
    });
    assert.ok(performance.now() - started < 5000);
    await retriever.close();
    await retriever.close();
  });
});
