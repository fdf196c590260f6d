import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chunkOf, storedDocument } from '../testing/index.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-document-store-'));
after(() => rmSync(directory, { recursive: true, force: true }));

describe('sqlite document store', () => {
  it('marks every write pending with a growing ticket, and completes only the latest', async () => {
    let clock = 1_000;
    const store = new SqliteDocumentStore({ now: () => clock });
    const first = await store.writeDocument(storedDocument('a'), [chunkOf('a', 0, 'one')]);
    const second = await store.writeDocument(storedDocument('a'), [chunkOf('a', 0, 'two')]);
    assert.ok(second > first);
    assert.equal(await store.ticketOf('a'), second);
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
    assert.equal((await store.getDocument('a'))?.indexPending, undefined);
    assert.deepEqual(await store.pendingWrites(10), []);
    clock = 0;
    const third = await store.writeDocument(storedDocument('a'), []);
    assert.ok(third > second, 'tickets grow even when the clock goes back');
    await store.close();
  });

  it('keeps a deleted document’s index entries pending for deletion until the index confirms', async () => {
    const store = new SqliteDocumentStore();
    const written = await store.writeDocument(storedDocument('a'), [chunkOf('a', 0, 'one')]);
    await store.completeWrite('a', written);
    const removed = (await store.removeDocument('a')) as number;
    assert.equal(await store.removeDocument('a'), undefined);
    assert.deepEqual(await store.chunksOf('a'), []);
    assert.deepEqual([...(await store.pendingDeletions(['a', 'b']))], ['a']);
    await store.completeWrite('a', removed);
    assert.deepEqual(await store.pendingWrites(10), []);
    await store.close();
  });

  it('marks stored documents pending for an empty index, all of them or those named', async () => {
    const store = new SqliteDocumentStore();
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
    await store.close();
  });

  it('shares knowledge.sqlite with SqliteRetriever both ways without stale keyword rows', async () => {
    const path = join(directory, 'shared.sqlite');
    const embedded = new SqliteRetriever({ path });
    await new KnowledgeBase(embedded).addDocuments([
      { id: 'old', text: 'The fleet manager approves parking.' },
    ]);
    await embedded.close();
    const store = new SqliteDocumentStore({ path });
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
    await store.close();
    const back = new SqliteRetriever({ path });
    assert.deepEqual(await back.search('fleet parking'), []);
    assert.equal((await back.search('garage badges'))[0]?.documentId, 'old');
    assert.equal((await back.search('lunch'))[0]?.documentId, 'new');
    await back.close();
  });
});
