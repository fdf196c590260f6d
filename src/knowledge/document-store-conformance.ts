import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkOf, storedDocument } from './retriever-conformance.ts';
import type { DocumentStore } from './types.ts';

/**
 * The behaviour every DocumentStore backend (the outbox of an outside search index) must
 * have. `open` opens a fresh, empty store whose ticket clock is `now`.
 */
export function documentStoreConformance(
  name: string,
  open: (now?: () => number) => Promise<DocumentStore> | DocumentStore,
): void {
  describe(`${name} document store (conformance)`, () => {
    it('marks every write pending with a growing ticket, and completes only the latest', async () => {
      let clock = 1_000;
      const store = await open(() => clock);
      const first = await store.writeDocument(storedDocument('a'), [chunkOf('a', 0, 'one')]);
      const second = await store.writeDocument(storedDocument('a'), [chunkOf('a', 0, 'two')]);
      assert.ok(second > first);
      assert.equal(await store.ticketOf('a'), second);
      assert.deepEqual(
        (await store.chunksOf('a')).map((chunk) => chunk.text),
        ['two'],
      );
      await store.completeWrite('a', first);
      assert.equal(
        (await store.getDocument('a'))?.indexPending,
        true,
        'an older ticket settles nothing',
      );
      await store.failWrite('a', second, '429 busy');
      assert.deepEqual(await store.pendingWrites(10), [
        { documentId: 'a', action: 'index', ticket: second, attempts: 1, lastError: '429 busy' },
      ]);
      await store.completeWrite('a', second);
      await store.completeWrite('a', second);
      assert.equal((await store.getDocument('a'))?.indexPending, undefined);
      assert.deepEqual(await store.pendingWrites(10), []);
      clock = 0;
      const third = await store.writeDocument(storedDocument('a'), []);
      assert.ok(third > second, 'tickets grow even when the clock goes back');
      await store.close();
    });

    it('keeps a deleted document’s index entries pending for deletion until the index confirms', async () => {
      const store = await open();
      const written = await store.writeDocument(storedDocument('a'), [chunkOf('a', 0, 'one')]);
      await store.completeWrite('a', written);
      const removed = (await store.removeDocument('a')) as number;
      assert.ok(removed > written);
      assert.equal(await store.removeDocument('a'), undefined);
      assert.equal(await store.getDocument('a'), undefined);
      assert.deepEqual(await store.chunksOf('a'), []);
      assert.deepEqual([...(await store.pendingDeletions(['a', 'b']))], ['a']);
      assert.deepEqual(await store.pendingWrites(10), [
        { documentId: 'a', action: 'delete', ticket: removed, attempts: 0, lastError: null },
      ]);
      await store.completeWrite('a', removed);
      assert.deepEqual(await store.pendingWrites(10), []);
      assert.deepEqual([...(await store.pendingDeletions(['a']))], []);
      const again = await store.writeDocument(storedDocument('a'), []);
      assert.ok(again > removed, 'a document written again after its deletion gets a later ticket');
      await store.close();
    });

    it('marks stored documents pending for an empty index, all of them or those named', async () => {
      const store = await open();
      for (const id of ['a', 'b', 'c']) {
        await store.completeWrite(id, await store.writeDocument(storedDocument(id), []));
      }
      assert.equal(await store.markPending(['b']), 1);
      assert.deepEqual(
        (await store.pendingWrites(10)).map((write) => write.documentId),
        ['b'],
      );
      assert.equal(await store.markPending(), 3);
      assert.equal((await store.pendingWrites(10)).length, 3);
      assert.equal((await store.pendingWrites(2)).length, 2);
      assert.deepEqual(
        (await store.listDocuments()).map((document) => document.indexPending),
        [true, true, true],
      );
      await store.close();
    });

    it('keeps documents with their metadata and chunks in order', async () => {
      const store = await open();
      await store.writeDocument(
        storedDocument('doc', {
          title: '휴가 정책',
          source: 'hr/vacation.md',
          metadata: { team: 'hr' },
        }),
        [chunkOf('doc', 1, 'second', 'B'), chunkOf('doc', 0, 'first', 'A')],
      );
      const document = await store.getDocument('doc');
      assert.equal(document?.title, '휴가 정책');
      assert.equal(document?.source, 'hr/vacation.md');
      assert.deepEqual(document?.metadata, { team: 'hr' });
      assert.deepEqual(await store.chunksOf('doc'), [
        chunkOf('doc', 0, 'first', 'A'),
        chunkOf('doc', 1, 'second', 'B'),
      ]);
      assert.equal(await store.ticketOf('missing'), 0);
      await store.close();
    });
  });
}
