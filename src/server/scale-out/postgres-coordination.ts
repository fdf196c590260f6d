import type { Logger } from 'pino';
import type { AgentRunner } from '../../agents/index.ts';
import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import type { Checkpointer } from '../../graph/index.ts';
import type { RunCoordination } from '../runs/run-coordination.ts';
import type { CancelReason } from '../runs/run-store.ts';
import { closeOrphanedRun, leftBehindReason } from '../sessions/orphaned-run.ts';
import { PostgresSessionQueue, runningInstanceSql } from '../sessions/postgres-session-queue.ts';
import { PostgresNotifications } from './postgres-notifications.ts';
import { RelayedRunStreams } from './relayed-run-streams.ts';
import { RunSweeper } from './run-sweeper.ts';

/** The NOTIFY channel that asks the instance running a session's run to stop it (payload: the session id). */
export const cancelChannel = 'yeoul_cancel';

/** What instances sharing PostgreSQL coordinate with. */
export interface PostgresCoordinationOptions {
  pool: PostgresPool;
  checkpointer: Checkpointer;
  runner: AgentRunner;
  /** YEOUL_SESSION_QUEUE_LIMIT. */
  queueLimit: number;
  /** YEOUL_LEASE_MS: the sweeper runs every third of it. */
  leaseMs: number;
  logger: Logger;
  /** How often waiters and joiners look again without a notification (default 1 000 ms). */
  pollMs?: number;
  /**
   * Stops this instance's runs of a session (going or waiting for their turn) with a reason:
   * how a newer message's `interrupt` or `rollback` sent from another instance lands here.
   */
  cancelHere?: (sessionId: string, reason: CancelReason) => void;
}

/**
 * The coordination of instances sharing one PostgreSQL database: one LISTEN connection
 * (`yeoul_queue`, `yeoul_run_events`, `yeoul_cancel`), the session queue in the database,
 * run events relayed through it, cancellation sent to the instance running the run, and the
 * sweeper that closes runs left behind by dead instances.
 * @example
 * const coordination = await openPostgresCoordination({ pool, checkpointer, runner, queueLimit: 64, leaseMs: 30_000, logger });
 */
export async function openPostgresCoordination(
  options: PostgresCoordinationOptions,
): Promise<RunCoordination> {
  const { pool, checkpointer, runner, logger } = options;
  const notifications = new PostgresNotifications(pool);
  await notifications.start();
  const isAlive = (instanceId: string) => checkpointer.isAlive(instanceId);
  const queue = new PostgresSessionQueue({
    pool,
    notifications,
    instanceId: checkpointer.instanceId,
    isAlive,
    limit: options.queueLimit,
    closeRun: (sessionId) => closeOrphanedRun(runner, checkpointer, sessionId),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });
  const streams = new RelayedRunStreams(
    { pool, notifications, isAlive, ...(options.pollMs ? { pollMs: options.pollMs } : {}) },
    checkpointer.instanceId,
  );
  const sweeper = new RunSweeper({
    pool,
    checkpointer,
    runner,
    queue,
    intervalMs: Math.max(250, Math.round(options.leaseMs / 3)),
    onError: (error) => logger.debug({ err: error }, 'sweeping runs left behind failed'),
  });
  sweeper.start();
  // The payload is the session id, or `{sessionId, reason}` for a run a newer message supersedes
  // (or one cancelled by request with its steps removed).
  const stopCancelling = notifications.on(cancelChannel, (payload) => {
    const asked = payload.startsWith('{')
      ? (JSON.parse(payload) as { sessionId: string; reason: CancelReason })
      : { sessionId: payload, reason: undefined };
    if (asked.reason !== undefined && options.cancelHere !== undefined) {
      options.cancelHere(asked.sessionId, asked.reason);
    } else if (runner.isRunning(asked.sessionId)) void runner.cancel(asked.sessionId);
  });
  return {
    queue,
    streams,
    async cancelElsewhere(sessionId, reason) {
      if (reason?.type === 'superseded' || (reason?.type === 'request' && reason.rollback)) {
        // Every instance hears it: runs waiting for their turn elsewhere stop too.
        const payload = JSON.stringify({ sessionId, reason });
        await queryPostgres(pool, `SELECT pg_notify('${cancelChannel}', $1)`, [payload]);
        return true;
      }
      // The started place in the session's line is the request whose run is going.
      const { rows } = await queryPostgres<{ instance_id: string }>(pool, runningInstanceSql, [
        sessionId,
      ]);
      const instanceId = rows[0]?.instance_id;
      if (instanceId === undefined || instanceId === checkpointer.instanceId) return false;
      if (!(await isAlive(instanceId))) return false;
      await queryPostgres(pool, `SELECT pg_notify('${cancelChannel}', $1)`, [sessionId]);
      return true;
    },
    async closeLeftBehind(sessionId) {
      let closed = false;
      for (const state of await runner.threadStates(sessionId)) {
        const owner = state?.status === 'running' ? state.owner : null;
        if (owner == null || owner === checkpointer.instanceId) continue;
        // Every run holds its request's place in the session's line while it goes.
        const { rows } = await queryPostgres(
          pool,
          'SELECT 1 FROM server_session_queue WHERE session_id = $1 AND instance_id = $2 LIMIT 1',
          [sessionId, owner],
        );
        if (rows.length > 0) continue;
        closed = (await runner.abandon(sessionId, leftBehindReason, undefined, owner)) || closed;
      }
      return closed;
    },
    async close() {
      stopCancelling();
      await sweeper.stop();
      await streams.close();
      await queue.close();
      await notifications.close();
    },
  };
}
