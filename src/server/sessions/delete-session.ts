import type { Runtime } from '../runtime/create-runtime.ts';

/**
 * Deletes a session and what is stored for it: its guardrail vault, its threads (the
 * conversation and its ops loop), its runs and its registry row. The vault goes first, so a stop
 * half-way never leaves real values behind a session that is gone, and again last, for an
 * entry a run being cancelled wrote meanwhile.
 */
export async function deleteSession(
  runtime: Pick<Runtime, 'runner' | 'sessions' | 'vaults' | 'runs'>,
  sessionId: string,
): Promise<void> {
  await runtime.vaults.delete(sessionId);
  await runtime.runner.deleteSession(sessionId);
  await runtime.runs.deleteSession(sessionId);
  await runtime.sessions.forget(sessionId);
  await runtime.vaults.delete(sessionId);
}
