import { api } from '../api/api-client.ts';
import type { HistoryStep } from '../api/types.ts';

let cached: { key: string; steps: Promise<HistoryStep[]> } | null = null;

/**
 * The stored steps of a session (GET /api/sessions/:id/history), fetched once per
 * `runsVersion`: the inspector and the sources of a turn share one request, in flight or
 * done. Only the latest is kept; a failed request is forgotten, so the next call asks again.
 */
export function sessionHistory(sessionId: string, runsVersion: number): Promise<HistoryStep[]> {
  const key = `${runsVersion} ${sessionId}`;
  if (cached?.key === key) return cached.steps;
  const steps: Promise<HistoryStep[]> = api.sessions
    .history(sessionId)
    .then((history) => history.steps);
  const entry = { key, steps };
  cached = entry;
  steps.catch(() => {
    if (cached === entry) cached = null;
  });
  return steps;
}

/** Drops the kept history (another session is opened: its runs may have moved on unseen). */
export function forgetSessionHistory(): void {
  cached = null;
}
