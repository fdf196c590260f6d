import type { Runtime } from '../runtime/create-runtime.ts';
import { PostgresNotifications } from '../scale-out/postgres-notifications.ts';
import { closeOrphanedRun } from './orphaned-run.ts';
import { PostgresSessionQueue } from './postgres-session-queue.ts';

/**
 * Runs `work` (a run started outside the server: `yeoul ask`, `chat`, `sessions resume`) in
 * its session's line, like a request: with `DATABASE_URL` it waits behind the runs of every
 * instance on that session and holds its place until `work` ends, so the two never
 * interleave (409 `session_busy` when `YEOUL_SESSION_QUEUE_LIMIT` already wait). On SQLite it
 * just runs `work`: the graph's thread queue orders one process's runs.
 * @example
 * const payload = await inSessionLine(runtime, sessionId, () => runtime.runner.invoke(request));
 */
export async function inSessionLine<Result>(
  runtime: Runtime,
  sessionId: string,
  work: () => Promise<Result>,
): Promise<Result> {
  if (runtime.store.backend !== 'postgres') return work();
  const { pool } = runtime.store;
  const { checkpointer, runner } = runtime;
  const notifications = new PostgresNotifications(pool);
  await notifications.start();
  // The checkpointer's instance id and heartbeat: a CLI that dies leaves no place behind
  // once its lease runs out, as a dead instance does not.
  const queue = new PostgresSessionQueue({
    pool,
    notifications,
    instanceId: checkpointer.instanceId,
    isAlive: (instanceId) => checkpointer.isAlive(instanceId),
    limit: runtime.config.sessionQueueLimit,
    closeRun: (id) => closeOrphanedRun(runner, checkpointer, id),
  });
  try {
    const leave = await queue.enter(sessionId);
    let failure: unknown;
    try {
      return await work();
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      leave(failure);
    }
  } finally {
    await queue.close();
    await notifications.close();
  }
}
