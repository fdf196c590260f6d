import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { cancelPausedRuns } from './cancel-paused-runs.ts';
import { hasEnded } from './run-ledger.ts';
import type { RunRecord } from './run-store.ts';

/**
 * Stops a run as `POST /api/runs/:id/cancel` asks: here when it goes in this process, in the
 * store while it waits for its turn elsewhere, through the instance that runs it, or (paused)
 * abandoned. An ended run is 409 `run_ended`.
 */
export async function cancelRun(context: RouteContext, run: RunRecord): Promise<void> {
  const { runs, runtime } = context;
  const ended = () =>
    new HttpError({ status: 409, code: 'run_ended', message: `run "${run.runId}" has ended` });
  if (hasEnded(run.status)) throw ended();
  if (runs.cancel(run.runId, { type: 'request' })) return;
  if (run.status === 'interrupted') {
    await runtime.runner.abandon(run.sessionId, 'cancelled by request');
    await cancelPausedRuns(context, run.sessionId, run.owner);
    return;
  }
  const cancelReason = { type: 'request' as const };
  if (
    run.status === 'queued' &&
    (await runs.ended(run, { status: 'cancelled', cancelReason }, { onlyFrom: ['queued'] }))
  ) {
    return;
  }
  if (await context.cancelElsewhere(run.sessionId)) return;
  const now = await runs.store.get(run.runId);
  if (now === undefined || hasEnded(now.status)) throw ended();
}
