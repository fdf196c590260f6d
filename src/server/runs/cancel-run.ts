import { RunSupersededError } from '../../graph/index.ts';
import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { cancelPausedRuns } from './cancel-paused-runs.ts';
import { hasEnded } from './run-ledger.ts';
import type { CancelReason, RunRecord } from './run-store.ts';

/**
 * Stops a run as `POST /api/runs/:id/cancel` asks: here when it goes in this process, in the
 * store while it waits for its turn elsewhere, through the instance that runs it, or (paused)
 * abandoned; with `rollback` its steps are removed too, as a newer message's `onBusy:
 * "rollback"` does. An ended run is 409 `run_ended`.
 */
export async function cancelRun(
  context: RouteContext,
  run: RunRecord,
  options: { rollback?: boolean } = {},
): Promise<void> {
  const { runs, runtime } = context;
  const ended = () =>
    new HttpError({ status: 409, code: 'run_ended', message: `run "${run.runId}" has ended` });
  if (hasEnded(run.status)) throw ended();
  const cancelReason: CancelReason = options.rollback
    ? { type: 'request', rollback: true }
    : { type: 'request' };
  if (runs.cancel(run.runId, cancelReason)) return;
  if (run.status === 'interrupted') {
    const cause = options.rollback
      ? new RunSupersededError({ byRunId: run.runId, rollback: true })
      : undefined;
    await runtime.runner.abandon(run.sessionId, 'cancelled by request', cause);
    await cancelPausedRuns(context, run.sessionId, run.owner, cancelReason);
    return;
  }
  if (
    run.status === 'queued' &&
    (await runs.ended(run, { status: 'cancelled', cancelReason }, { onlyFrom: ['queued'] }))
  ) {
    return;
  }
  if (await context.cancelElsewhere(run.sessionId, options.rollback ? cancelReason : undefined)) {
    return;
  }
  const now = await runs.store.get(run.runId);
  if (now === undefined || hasEnded(now.status)) throw ended();
}
