import { anonymousOwner } from '../../identity/index.ts';
import type { SessionStore } from './session-store.ts';

/**
 * Which of `sessionIds` are `owner`'s: registered to it, or (the anonymous owner) not
 * registered at all, as the session store counts them.
 */
export async function sessionsOfOwner(
  sessions: SessionStore,
  owner: string,
  sessionIds: string[],
): Promise<Set<string>> {
  const owned = new Set((await sessions.owned(owner)).map((session) => session.sessionId));
  if (owner !== anonymousOwner) return owned;
  const registered = await sessions.registered(sessionIds);
  for (const sessionId of sessionIds) if (!registered.has(sessionId)) owned.add(sessionId);
  return owned;
}
