import { runsElsewhere } from '../../graph/index.ts';
import type { RouteContext } from '../routes/route-context.ts';
import type { AgentCall } from './run-request.ts';
import { runAgentCall } from './run-request.ts';
import type { RunRecord } from './run-store.ts';

/** The sources of runs nobody waits on: taken up again after their server stopped. */
const backgroundSources = new Set(['api', 'schedule']);

/** A run nobody waits on: started by `POST /api/runs` or a schedule, or kept with its request (an A2A task with `returnImmediately`). */
function isBackground(run: RunRecord): boolean {
  return backgroundSources.has(run.source) || run.request !== undefined;
}

/** A run lost with its server, as its record says. */
const lost = (attempt: string) => ({
  code: 'run_lost',
  message: `the server running it stopped ${attempt}`,
});

/**
 * Takes up the runs a stopped server left `queued` or `running` (its instance no longer
 * alive): a background run (`api`, `schedule`) goes on here with its attempts counted — a
 * queued one starts, a running one resumes from its last committed step — and one lost a
 * second time ends `failed` `run_lost`; a run whose client waited ends `failed` `run_lost`
 * at once (its session's interrupted graph run is closed by the session's next request).
 * Each run is claimed with a compare-and-set, so two instances never both take it up.
 */
export async function recoverRuns(context: RouteContext): Promise<void> {
  const { runs, runtime } = context;
  for (const run of await runs.store.inStatus(['queued', 'running'])) {
    // This process's runs (each process has an id of its own) and a live instance's are theirs.
    if (run.instanceId === runs.instanceId) continue;
    if (await runsElsewhere(runtime.checkpointer, run.instanceId)) continue;
    if (!isBackground(run) || run.attempts >= 2) {
      const error = lost(run.attempts >= 2 ? 'a second time' : 'while its client waited');
      // One compare-and-set writes the end and its webhook delivery: one instance ends it.
      await runs.ended(
        run,
        { status: 'failed', error },
        { onlyFrom: [run.status], onlyInstance: run.instanceId },
      );
      continue;
    }
    const claim = { attempts: run.attempts + 1, instanceId: runs.instanceId };
    if (!(await runs.store.update(run.runId, claim, [run.status], run.instanceId))) continue;
    void takeUp(context, { ...run, ...claim }).catch((error) =>
      runtime.logger.warn({ err: error, runId: run.runId }, 'a run taken up again failed'),
    );
  }
}

/** Runs a claimed run again: from its last committed step when its graph run was left going. */
async function takeUp(context: RouteContext, run: RunRecord): Promise<void> {
  const { runtime } = context;
  const states = await runtime.runner.threadStates(run.sessionId);
  const leftGoing = run.status === 'running' && states.some((state) => state?.status === 'running');
  if (!leftGoing && run.message === undefined) {
    const error = lost('before its decisions were taken');
    await context.runs.ended(run, { status: 'failed', error });
    return;
  }
  const { options, runConfig } = (run.request ?? {}) as Pick<AgentCall, 'options' | 'runConfig'>;
  const call: AgentCall = {
    sessionId: run.sessionId,
    owner: run.owner,
    ...(leftGoing || run.message === undefined ? {} : { message: run.message }),
    ...(options === undefined ? {} : { options }),
    // The run's own cap on super-steps and durability hold again.
    ...(runConfig === undefined ? {} : { runConfig }),
  };
  await runAgentCall(context, call, {
    streamTokens: true,
    source: run.source,
    record: { ...run, status: 'queued' },
    ...(leftGoing ? { pickUp: true } : {}),
  }).catch(() => undefined); // its record says how it failed
}
