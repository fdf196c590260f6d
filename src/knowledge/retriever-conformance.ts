import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Chunk, Retriever, StoredDocument } from './types.ts';

/** A stored document for the suite. */
export function storedDocument(id: string, fields: Partial<StoredDocument> = {}): StoredDocument {
  return {
    id,
    title: `Title of ${id}`,
    source: null,
    contentHash: `hash-${id}`,
    metadata: {},
    chunkCount: 1,
    updatedAt: 1_700_000_000_000,
    ...fields,
  };
}

/** A chunk of a document for the suite. */
export function chunkOf(documentId: string, position: number, text: string, heading = ''): Chunk {
  return {
    id: `${documentId}#${position}`,
    documentId,
    position,
    heading,
    text,
    tokenCount: text.length,
  };
}

/**
 * The behaviour every Retriever backend must have. Call it with a factory that opens a
 * fresh, empty backend; `reopen` (when the backend persists) opens the same storage again.
 */
export function retrieverConformance(
  name: string,
  open: () => Promise<Retriever> | Retriever,
  reopen?: () => Promise<Retriever> | Retriever,
): void {
  describe(`${name} retriever (conformance)`, () => {
    let retriever: Retriever;
    beforeEach(async () => {
      retriever = await open();
      await retriever.upsertDocument(
        storedDocument('vacation', { title: '휴가 정책', metadata: { team: 'hr' } }),
        [
          chunkOf(
            'vacation',
            0,
            '연차는 입사 첫해에 15일이 주어지며, 병가는 연 10일까지 쓸 수 있습니다.',
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
      await retriever.upsertDocument(
        storedDocument('budget', { title: 'Team budget', chunkCount: 1 }),
        [chunkOf('budget', 0, 'The 2024 team budget is 100 million won, reviewed every quarter.')],
      );
    });
    afterEach(async () => {
      await retriever.close();
    });

    it('finds Korean text by words glued to particles', async () => {
      const hits = await retriever.search('병가를 며칠 쓸 수 있나요?', { k: 3 });
      assert.equal(hits[0]?.chunkId, 'vacation#0');
      assert.equal(hits[0]?.title, '휴가 정책');
      assert.equal(hits[0]?.heading, '휴가 정책 > 연차');
      assert.deepEqual(hits[0]?.metadata, { team: 'hr' });
    });

    it('finds English text by inflected words', async () => {
      const hits = await retriever.search('how are budgets reviewed?');
      assert.equal(hits[0]?.documentId, 'budget');
    });

    it('returns hits best first with decreasing scores, at most k', async () => {
      const hits = await retriever.search('휴가 출산 연차', { k: 1 });
      assert.equal(hits.length, 1);
      const all = await retriever.search('휴가 출산 연차 budget', { k: 10 });
      for (let index = 1; index < all.length; index += 1) {
        assert.ok((all[index - 1]?.score ?? 0) >= (all[index]?.score ?? 0));
      }
    });

    it('never throws on punctuation or search syntax in a query', async () => {
      for (const query of [
        '"',
        'AND OR NOT',
        '*',
        'budget"',
        '(연차',
        'NEAR(a b)',
        'col:value',
        '^',
        '',
        '   ',
        '???',
      ]) {
        assert.ok(Array.isArray(await retriever.search(query)), query);
      }
    });

    it('replaces a document’s chunks when it is stored again', async () => {
      await retriever.upsertDocument(storedDocument('budget', { contentHash: 'new' }), [
        chunkOf('budget', 0, 'The travel allowance is 50,000 won per day.'),
      ]);
      assert.deepEqual(await retriever.search('reviewed every quarter'), []);
      assert.equal((await retriever.search('travel allowance'))[0]?.documentId, 'budget');
      assert.equal((await retriever.getDocument('budget'))?.contentHash, 'new');
    });

    it('deletes a document with its chunks', async () => {
      assert.equal(await retriever.deleteDocument('vacation'), true);
      assert.equal(await retriever.deleteDocument('vacation'), false);
      assert.deepEqual(await retriever.search('병가'), []);
      assert.deepEqual(
        (await retriever.listDocuments()).map((document) => document.id),
        ['budget'],
      );
    });

    it('lists and gets stored documents', async () => {
      assert.deepEqual((await retriever.listDocuments()).map((document) => document.id).sort(), [
        'budget',
        'vacation',
      ]);
      assert.equal((await retriever.getDocument('vacation'))?.title, '휴가 정책');
      assert.equal(await retriever.getDocument('missing'), undefined);
    });

    if (reopen) {
      it('keeps documents and the index across close and reopen', async () => {
        await retriever.close();
        retriever = await reopen();
        assert.equal((await retriever.search('출산휴가'))[0]?.chunkId, 'vacation#1');
      });
    }
  });
}
