import type { RouteContext } from '../routes/route-context.ts';
import type { CancelReason } from './run-store.ts';

/**
 * Marks the session's runs paused for approval `cancelled` (`cancelReason` by default
 * `{type: "request"}`), once their paused graph runs were abandoned: each ends as a cancelled
 * run does, its listeners told.
 */
export async function cancelPausedRuns(
  context: Pick<RouteContext, 'runs'>,
  sessionId: string,
  owner: string,
  cancelReason: CancelReason = { type: 'request' },
): Promise<void> {
  const { runs } = context;
  const paused = await runs.store.list({ owner, sessionId, statuses: ['interrupted'] });
  for (const run of paused) {
    const full = (await runs.store.get(run.runId)) ?? run;
    const result =
      typeof full.result === 'object' && full.result !== null
        ? { ...full.result, status: 'cancelled', cancelReason }
        : undefined;
    await runs.ended(full, { status: 'cancelled', cancelReason, ...(result ? { result } : {}) });
  }
}
