import type { Runtime } from '../runtime/create-runtime.ts';

/**
 * Deletes a session and what is stored for it: its guardrail vault, its threads (the
 * conversation and its ops loop), its runs with their webhook deliveries, its responses (`/v1/responses`), and its registry row. The vault goes first, so a stop
 * half-way never leaves real values behind a session that is gone, and again last, for an
 * entry a run being cancelled wrote meanwhile.
 */
export async function deleteSession(
  runtime: Pick<Runtime, 'runner' | 'sessions' | 'vaults' | 'runs' | 'webhooks' | 'responses'>,
  sessionId: string,
): Promise<void> {
  await runtime.vaults.delete(sessionId);
  await runtime.runner.deleteSession(sessionId);
  await deleteDeliveries(runtime, sessionId);
  await runtime.runs.deleteSession(sessionId);
  await runtime.responses.deleteSession(sessionId);
  await runtime.sessions.forget(sessionId);
  await runtime.vaults.delete(sessionId);
}

/** Deletes the webhook deliveries of the session's runs (the runs that have a webhook). */
async function deleteDeliveries(
  runtime: Pick<Runtime, 'sessions' | 'runs' | 'webhooks'>,
  sessionId: string,
): Promise<void> {
  const owner = await runtime.sessions.ownerOf(sessionId);
  if (owner === undefined) return;
  const runs = await runtime.runs.list({ owner, sessionId, limit: Number.MAX_SAFE_INTEGER });
  for (const run of runs) {
    if (run.webhook !== undefined) await runtime.webhooks.deleteRun(run.runId);
  }
}
