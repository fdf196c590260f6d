import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { documentStoreConformance } from './document-store-conformance.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { chunkOf, storedDocument } from './retriever-conformance.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-document-store-'));
after(() => rmSync(directory, { recursive: true, force: true }));

documentStoreConformance('sqlite', (now) => new SqliteDocumentStore(now ? { now } : {}));

describe('sqlite document store', () => {
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
