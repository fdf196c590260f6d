import type { Checkpointer } from '../../graph/index.ts';
import { anonymousOwner } from '../../identity/index.ts';
import { notFound, type SessionStore } from './session-store.ts';

/**
 * The session store, with the threads nobody registered (made before the registry existed,
 * or by a runner used directly) kept the anonymous owner's, as `check` counts them: another
 * owner naming one as its new session gets the 404 of another owner's session, and never
 * its history. A session is thus registered before its thread is written (forks, kept
 * `/v1` runs claim first).
 */
export function keepUnregisteredThreads(
  store: SessionStore,
  checkpointer: Pick<Checkpointer, 'listThreads'>,
): SessionStore {
  const threadExists = async (sessionId: string) =>
    (await checkpointer.listThreads({ prefix: sessionId })).some(
      (thread) => thread.threadId === sessionId,
    );
  return {
    async claim(sessionId, owner, firstMessage, graph, forkedFrom) {
      if (
        owner !== anonymousOwner &&
        !(await store.has(sessionId)) &&
        (await threadExists(sessionId))
      ) {
        throw notFound(sessionId);
      }
      return store.claim(sessionId, owner, firstMessage, graph, forkedFrom);
    },
    title: (sessionId, firstMessage) => store.title(sessionId, firstMessage),
    graphOf: (sessionId) => store.graphOf(sessionId),
    check: (sessionId, owner) => store.check(sessionId, owner),
    ownerOf: (sessionId) => store.ownerOf(sessionId),
    has: (sessionId) => store.has(sessionId),
    registered: (sessionIds) => store.registered(sessionIds),
    owned: (owner) => store.owned(owner),
    forget: (sessionId) => store.forget(sessionId),
  };
}
