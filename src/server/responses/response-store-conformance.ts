import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ResponseStore, StoredResponse } from './response-store.ts';

/** A response store the suite opens, and how to release it. */
export interface OpenedResponseStore {
  store: ResponseStore;
  /** Another store on the same data, as a second instance (or process) would open it. */
  another(): Promise<ResponseStore> | ResponseStore;
  close(): Promise<void> | void;
}

/** A response of alice's on session `sessionId`. */
function responseOf(id: string, sessionId = 's1', step = 4): StoredResponse {
  return {
    id,
    owner: 'alice',
    sessionId,
    runId: `run-${id}`,
    step,
    createdAt: 1_800_000_000,
    body: { id, object: 'response', output: [{ type: 'message', text: '안녕하세요' }] },
  };
}

/**
 * The behaviour every ResponseStore backend must have (SQLite, PostgreSQL). `open` gives a
 * fresh, empty store each time.
 */
export function responseStoreConformance(
  name: string,
  open: () => Promise<OpenedResponseStore> | OpenedResponseStore,
): void {
  describe(`${name} response store (conformance)`, () => {
    let opened: OpenedResponseStore;
    let store: ResponseStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('gives back a response exactly as saved, from another connection too', async () => {
      await store.save(responseOf('resp_1'));
      assert.deepEqual(await store.get('resp_1'), responseOf('resp_1'));
      assert.deepEqual(await (await opened.another()).get('resp_1'), responseOf('resp_1'));
      assert.equal(await store.get('resp_never'), undefined);
    });

    it('replaces a response saved again under its id', async () => {
      await store.save(responseOf('resp_1'));
      await store.save(responseOf('resp_1', 's1', 9));
      assert.equal((await store.get('resp_1'))?.step, 9);
    });

    it('deletes one response, and says whether it was there', async () => {
      await store.save(responseOf('resp_1'));
      await store.save(responseOf('resp_2'));
      assert.equal(await store.delete('resp_1'), true);
      assert.equal(await store.delete('resp_1'), false);
      assert.equal(await store.get('resp_1'), undefined);
      assert.ok(await store.get('resp_2'));
    });

    it('keeps a conversation’s metadata, replaced when saved again', async () => {
      const conversation = {
        sessionId: 's1',
        owner: 'alice',
        createdAt: 1_800_000_000,
        metadata: { topic: '여울' },
      };
      await store.saveConversation(conversation);
      assert.deepEqual(await store.conversation('s1'), conversation);
      await store.saveConversation({ ...conversation, metadata: {} });
      assert.deepEqual((await store.conversation('s1'))?.metadata, {});
      assert.equal(await store.conversation('s2'), undefined);
    });

    it('deletes a session’s responses and conversation, and nothing of another session', async () => {
      await store.save(responseOf('resp_1', 's1'));
      await store.save(responseOf('resp_2', 's2'));
      await store.saveConversation({ sessionId: 's1', owner: 'alice', createdAt: 1, metadata: {} });
      await store.deleteSession('s1');
      assert.equal(await store.get('resp_1'), undefined);
      assert.equal(await store.conversation('s1'), undefined);
      assert.ok(await store.get('resp_2'));
    });
  });
}
