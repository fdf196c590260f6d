import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { SqliteKeywordSearch } from './sqlite-keyword-search.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

const retrievers: SqliteRetriever[] = [];
after(() => Promise.all(retrievers.map((retriever) => retriever.close())));

/** An in-memory retriever holding one one-chunk document per entry. */
async function retrieverWith(documents: Array<{ id: string; title: string; text: string }>) {
  const retriever = new SqliteRetriever();
  retrievers.push(retriever);
  for (const document of documents) {
    await retriever.upsertDocument(
      {
        ...document,
        source: null,
        contentHash: document.id,
        metadata: {},
        chunkCount: 1,
        updatedAt: 0,
      },
      [
        {
          id: `${document.id}#0`,
          documentId: document.id,
          position: 0,
          heading: '',
          text: document.text,
          tokenCount: 0,
        },
      ],
    );
  }
  return retriever;
}

describe('SqliteKeywordSearch', () => {
  it("scores exactly as FTS5's bm25() when every query term weighs 1 (Latin words)", async () => {
    const retriever = await retrieverWith([
      {
        id: 'a',
        title: 'Mars rover',
        text: 'Perseverance landed on Mars carrying the Ingenuity helicopter.',
      },
      {
        id: 'b',
        title: 'Helicopters',
        text: 'A helicopter is lifted by rotors; helicopters hover.',
      },
      { id: 'c', title: 'Moon', text: 'Apollo 11 landed on the Moon in 1969.' },
      { id: 'd', title: 'Rovers', text: 'Rovers carry instruments across Mars and the Moon.' },
    ]);
    const ranks = new SqliteKeywordSearch(retriever.database, 2).ranks(
      'Which helicopter did the Mars rover carry?',
      5,
    );
    const expected = retriever.database
      .prepare(
        `SELECT rowid, -bm25(kb_terms, 2.0, 1.0) AS score FROM kb_terms
         WHERE kb_terms MATCH '"which" OR "helicopter" OR "mars" OR "rover" OR "carry"'
         ORDER BY bm25(kb_terms, 2.0, 1.0)`,
      )
      .all() as Array<{ rowid: number; score: number }>;
    assert.equal(ranks.length, expected.length);
    for (const [index, rank] of ranks.entries()) {
      assert.equal(rank.rowid, expected[index]?.rowid);
      assert.ok(Math.abs(rank.score - (expected[index]?.score ?? 0)) < 1e-9, JSON.stringify(rank));
    }
  });

  it("ranks a passage with more of the question's words above one with a long word's many bigrams", async () => {
    const retriever = await retrieverWith([
      {
        id: 'memorial',
        title: '기념관',
        text: '대한민국임시정부기념관은 서울 서대문구에 있다.',
      },
      {
        id: 'shanghai',
        title: '상하이',
        text: '1919년 임시 정부가 수립된 도시는 중국의 상하이이다.',
      },
    ]);
    const hits = await retriever.search('대한민국임시정부가 수립된 중국 도시는?', { k: 2 });
    assert.deepEqual(
      hits.map((hit) => hit.documentId),
      ['shanghai', 'memorial'],
    );
  });

  it('finds nothing for a query of question words only', async () => {
    const retriever = await retrieverWith([
      { id: 'a', title: '무엇', text: '무엇이든 물어보세요.' },
    ]);
    assert.deepEqual(new SqliteKeywordSearch(retriever.database, 2).ranks('무엇인가?', 5), []);
  });
});
