import { RunSupersededError } from '../../graph/index.ts';
import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { cancelPausedRuns } from './cancel-paused-runs.ts';
import { type CancelReason, goingRunStatuses, type RunRecord } from './run-store.ts';

/** What a new message does on a busy session (`options.onBusy`, a schedule's, `x-yeoul-on-busy`). */
export type OnBusy = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

/**
 * Applies a new message's `onBusy` before its run `runId` takes its place in the session's
 * line. `enqueue` (or none) and decisions change nothing. `reject` on a busy session (a run
 * queued or running, in any instance) throws 409 `session_busy` naming the running run.
 * `interrupt` and `rollback` stop every run of the session — here, in the store while it
 * waits elsewhere, or through the instance that runs it — and end a run paused for approval
 * (its pending calls closed as denied): each ends `cancelled` with `cancelReason: {type:
 * "superseded", runId, onBusy}`; with `rollback` the stopped run's steps are removed.
 */
export async function applyOnBusy(
  context: RouteContext,
  call: { sessionId: string; owner?: string | undefined; resume?: unknown; onBusy?: OnBusy },
  runId: string,
): Promise<void> {
  const { onBusy } = call;
  if (call.resume !== undefined || onBusy === undefined || onBusy === 'enqueue') return;
  const { runs } = context;
  const { sessionId } = call;
  const owner = call.owner ?? 'anonymous';
  const live = runs.liveOf(sessionId);
  const stored = await runs.store.list({ owner, sessionId, statuses: goingRunStatuses });
  if (onBusy === 'reject') {
    if (live.length === 0 && stored.length === 0 && !(await context.queue.busy(sessionId))) return;
    throw sessionBusy(sessionId, live[0] ?? runningOf(stored));
  }
  const reason: CancelReason = { type: 'superseded', runId, onBusy };
  for (const id of live) runs.cancel(id, reason);
  let elsewhere = live.length === 0 && (await context.queue.busy(sessionId));
  for (const run of stored) {
    if (live.includes(run.runId)) continue;
    if (run.status === 'running') elsewhere = true;
    // A run waiting for its turn in another instance never starts: it finds itself cancelled.
    else if (
      await runs.store.update(run.runId, { status: 'cancelled', cancelReason: reason }, ['queued'])
    ) {
      await runs.ended(run, { status: 'cancelled', cancelReason: reason });
    }
  }
  if (elsewhere) await context.cancelElsewhere(sessionId, reason);
  const { runner } = context.runtime;
  const state = await (await runner.threadGraph(sessionId)).getState(sessionId);
  if (state?.status === 'interrupted') {
    const cause = new RunSupersededError({ byRunId: runId, rollback: onBusy === 'rollback' });
    await runner.abandon(sessionId, 'denied: a newer message interrupted the run', cause);
    await cancelPausedRuns(context, sessionId, owner, reason);
  }
}

/** The id of the run going among `runs` (else the oldest waiting one). */
function runningOf(runs: readonly RunRecord[]): string | undefined {
  return (runs.find((run) => run.status === 'running') ?? runs.at(-1))?.runId;
}

function sessionBusy(sessionId: string, runId: string | undefined): HttpError {
  return new HttpError({
    status: 409,
    code: 'session_busy',
    message:
      runId === undefined
        ? `session "${sessionId}" is busy with another run`
        : `session "${sessionId}" is busy with run "${runId}"`,
  });
}
