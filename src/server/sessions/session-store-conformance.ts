import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { anonymousOwner } from '../../identity/index.ts';
import type { SessionStore } from './session-store.ts';

/** A session store the suite opens, and how to release it. */
export interface OpenedSessionStore {
  store: SessionStore;
  close(): Promise<void> | void;
}

/**
 * The behaviour every SessionStore backend must have (SQLite, PostgreSQL). `open` gives a
 * fresh, empty store each time.
 */
export function sessionStoreConformance(
  name: string,
  open: () => Promise<OpenedSessionStore> | OpenedSessionStore,
): void {
  describe(`${name} session store (conformance)`, () => {
    let opened: OpenedSessionStore;
    let store: SessionStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('registers a session for its owner, titled by its first message', async () => {
      await store.claim('s1', 'alice', '  연차 휴가는\n며칠인가요? ');
      assert.equal(await store.has('s1'), true);
      const owned = await store.owned('alice');
      assert.deepEqual(
        owned.map(({ sessionId, title }) => ({ sessionId, title })),
        [{ sessionId: 's1', title: '연차 휴가는 며칠인가요?' }],
      );
      assert.equal(typeof owned[0]?.createdAt, 'number');
      assert.deepEqual(await store.owned('bob'), []);
    });

    it('lists a fork with where it came from, and other sessions without', async () => {
      await store.claim('original', 'alice', 'hello');
      await store.claim('fork-1', 'alice', 'hello', undefined, { sessionId: 'original', step: 3 });
      await store.claim('fork-0', 'alice', '', 'Triage', { sessionId: 'original', step: -1 });
      const byId = new Map((await store.owned('alice')).map((item) => [item.sessionId, item]));
      assert.equal(byId.get('original')?.forkedFrom, undefined);
      assert.deepEqual(byId.get('fork-1')?.forkedFrom, { sessionId: 'original', step: 3 });
      assert.deepEqual(byId.get('fork-0')?.forkedFrom, { sessionId: 'original', step: -1 });
      assert.equal(byId.get('fork-0')?.graph, 'Triage');
    });

    it('answers 404 to another owner, as if the session did not exist', async () => {
      await store.claim('s1', 'alice', 'hello');
      await assert.rejects(store.claim('s1', 'bob', 'hi'), { code: 'not_found', status: 404 });
      await assert.rejects(store.check('s1', 'bob'), { code: 'not_found' });
      await store.check('s1', 'alice');
      assert.equal(await store.ownerOf('s1'), 'alice');
      assert.equal(await store.ownerOf('never-claimed'), undefined);
    });

    it('counts an unregistered session as anonymous', async () => {
      await store.check('never-claimed', anonymousOwner);
      await assert.rejects(store.check('never-claimed', 'alice'), { code: 'not_found' });
      assert.equal(await store.has('never-claimed'), false);
      await store.claim('s1', 'alice', 'hello');
      assert.deepEqual(await store.registered(['s1', 'never-claimed']), new Set(['s1']));
      assert.deepEqual(await store.registered([]), new Set());
    });

    it('gives an untitled session the first message that comes, and keeps it after', async () => {
      await store.claim('s1', 'alice');
      await store.claim('s1', 'alice', 'first question');
      await store.claim('s1', 'alice', 'second question');
      assert.equal((await store.owned('alice'))[0]?.title, 'first question');
    });

    it('titles an untitled session once (a title that waited for the guardrails), never another', async () => {
      await store.claim('t1', 'alice');
      await store.title('t1', '메일은 [EMAIL_1] 로 보내줘');
      await store.title('t1', 'a later message');
      await store.title('unknown', 'nothing happens');
      assert.equal((await store.owned('alice'))[0]?.title, '메일은 [EMAIL_1] 로 보내줘');
      assert.equal(await store.has('unknown'), false);
    });

    it('shortens long titles to 80 characters', async () => {
      await store.claim('s1', 'alice', 'x'.repeat(200));
      const title = (await store.owned('alice'))[0]?.title ?? '';
      assert.equal(title.length, 80);
      assert.ok(title.endsWith('…'));
    });

    it('lists newest first and forgets a session', async () => {
      await store.claim('old', 'alice', 'a');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.claim('new', 'alice', 'b');
      assert.deepEqual(
        (await store.owned('alice')).map((session) => session.sessionId),
        ['new', 'old'],
      );
      await store.forget('old');
      assert.equal(await store.has('old'), false);
      assert.deepEqual(
        (await store.owned('alice')).map((session) => session.sessionId),
        ['new'],
      );
    });

    it('lets exactly one of two owners claiming one new id at once have it', async () => {
      const results = await Promise.allSettled([
        store.claim('race', 'alice', 'a'),
        store.claim('race', 'bob', 'b'),
      ]);
      assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
      const winner = results[0]?.status === 'fulfilled' ? 'alice' : 'bob';
      await store.check('race', winner);
    });
  });
}
