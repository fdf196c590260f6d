import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { anonymousOwner } from '../../identity/index.ts';
import { SqliteSessionStore } from './sqlite-session-store.ts';
import { keepUnregisteredThreads } from './unregistered-threads.ts';

describe('threads nobody registered', () => {
  const threads = ['legacy', 'legacy#ops', 'legacy-2'];
  const open = () =>
    keepUnregisteredThreads(new SqliteSessionStore(new DatabaseSync(':memory:')), {
      listThreads: async (options) =>
        threads
          .filter((threadId) => threadId.startsWith(options?.prefix ?? ''))
          .map((threadId) => ({
            threadId,
            lastSeq: 1,
            status: 'done' as const,
            runId: 'r',
            updatedAt: 0,
          })),
    });

  it('stay the anonymous owner’s: another owner naming one gets a 404', async () => {
    const store = open();
    await assert.rejects(store.claim('legacy', 'jwt:bob', 'hi'), { code: 'not_found' });
    assert.equal(await store.has('legacy'), false, 'nothing registered');
    await store.claim('legacy', anonymousOwner, 'hi');
    assert.equal(await store.ownerOf('legacy'), anonymousOwner);
  });

  it('leave new ids (a longer id sharing the prefix included) to whoever claims them', async () => {
    const store = open();
    await store.claim('legacy-', 'jwt:bob', 'hi');
    await store.claim('fresh', 'jwt:bob', 'hi');
    assert.deepEqual((await store.owned('jwt:bob')).map((session) => session.sessionId).sort(), [
      'fresh',
      'legacy-',
    ]);
    await store.claim('fresh', 'jwt:bob', 'again');
    await assert.rejects(store.claim('fresh', 'jwt:alice'), { code: 'not_found' });
  });
});
