import { RunCancelledError } from '../../graph/index.ts';
import type { RouteContext } from '../routes/route-context.ts';
import type { GraphCall } from './run-graph-call.ts';
import { failureOf } from './run-ledger.ts';
import type { RunRecord } from './run-store.ts';

/**
 * Starts a run of a graph of the config file that nobody waits on: its record is stored
 * `queued` at once (what the caller answers with), then `execute` runs it (the caller's way:
 * its events kept for joiners, its cancel tracked) in its place in the thread's line, the
 * record going `running` and ending as `runGraphCall` writes it. A run that never began
 * (refused by its line, cancelled while it waited) ends `failed` or `cancelled` here. It is
 * not started again after a restart: a run its stopped server left ends `failed` `run_lost`.
 * @example
 * const record = await startBackgroundGraphRun(context, call, (recorded) => execute(recorded));
 */
export async function startBackgroundGraphRun(
  context: RouteContext,
  call: GraphCall,
  execute: (call: GraphCall) => Promise<unknown>,
): Promise<RunRecord> {
  const { runs } = context;
  const record: RunRecord = {
    runId: call.runId,
    sessionId: call.threadId,
    owner: call.owner,
    status: 'queued',
    source: call.source ?? 'graph',
    graph: call.name,
    createdAt: new Date().toISOString(),
    startedAt: null,
    endedAt: null,
    attempts: 1,
    instanceId: runs.instanceId,
    ...(call.metadata === undefined ? {} : { metadata: call.metadata }),
    ...(call.stream === undefined ? {} : { stream: call.stream }),
  };
  if (!(await runs.create(record))) {
    await call.admission.refund();
    throw new Error(`run "${record.runId}" exists already`);
  }
  void execute({ ...call, recorded: true }).catch(async (error) => {
    const cancelled = error instanceof RunCancelledError;
    await runs.ended(
      record,
      cancelled
        ? { status: 'cancelled', cancelReason: { type: 'request' } }
        : { status: 'failed', error: failureOf(error) },
      { onlyFrom: ['queued'] },
    );
  });
  return record;
}
