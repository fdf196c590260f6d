import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/api-client.ts';
import type { SessionSummary } from '../api/types.ts';

/**
 * The owner's sessions (GET /api/sessions), newest first, reloaded when either version goes
 * up (after a run, a fork or a deletion; after a new key). The list and the fork links share it.
 */
export function useSessions(runsVersion: number, authVersion: number): SessionSummary[] {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  useEffect(() => {
    let live = true;
    api.sessions
      .list()
      .then((body) => live && setSessions(body.sessions))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [runsVersion, authVersion]);
  return sessions;
}
