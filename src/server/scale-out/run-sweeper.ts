import { type AgentRunner, sessionOfThread } from '../../agents/index.ts';
import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import type { Checkpointer } from '../../graph/index.ts';
import { closeOrphanedRun, hasOrphanedRun } from '../sessions/orphaned-run.ts';
import type { PostgresSessionQueue } from '../sessions/postgres-session-queue.ts';
import { endOfRun } from './event-relay.ts';

/** What the sweeper looks after. */
export interface RunSweeperDeps {
  pool: PostgresPool;
  checkpointer: Checkpointer;
  runner: AgentRunner;
  queue: PostgresSessionQueue;
  /** How often it sweeps (a third of the lease, so a dead instance's runs end within ~1⅓ leases). */
  intervalMs: number;
  /** Told about a sweep that failed (the database away, say); the next one tries again. */
  onError?: (error: unknown) => void;
}

/** How long the relayed events of a finished run stay for late joiners. */
const keepFinishedEvents = '60 seconds';

/**
 * The periodic work of each instance sharing PostgreSQL, so that the store is right even
 * when no request comes: queue rows of dead instances removed; runs left behind (their
 * instance dead, or this one after its database went away) closed as failed — each only
 * while nobody is in its session's line, so a request that is about to take the run over
 * is never raced; relayed events of finished runs deleted after a minute.
 */
export class RunSweeper {
  #deps: RunSweeperDeps;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(deps: RunSweeperDeps) {
    this.#deps = deps;
  }

  start(): void {
    this.#timer = setInterval(() => {
      this.#sweeping ??= this.sweep()
        .catch((error: unknown) => this.#deps.onError?.(error))
        .finally(() => {
          this.#sweeping = undefined;
        });
    }, this.#deps.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
  }

  /** One round: dead queue rows, runs left behind, old relayed events. */
  async sweep(): Promise<void> {
    const { pool, checkpointer, runner, queue } = this.#deps;
    await queue.removeDeadInstances();
    await queue.removeStrayRows();
    const sessions = new Set(
      (await checkpointer.listThreads({ status: 'running' })).map((thread) =>
        sessionOfThread(thread.threadId),
      ),
    );
    for (const sessionId of sessions) {
      if (!(await hasOrphanedRun(runner, checkpointer, sessionId))) continue;
      const leave = await queue.tryEnterIdle(sessionId);
      if (leave === undefined) continue; // a request is in line: it closes the run itself
      try {
        await closeOrphanedRun(runner, checkpointer, sessionId);
      } finally {
        leave();
      }
    }
    await queryPostgres(
      pool,
      `DELETE FROM server_run_events WHERE created_at < now() - interval '1 day'
         OR run_key IN (SELECT run_key FROM server_run_events
           WHERE event = '${endOfRun}' AND created_at < now() - interval '${keepFinishedEvents}')`,
    );
  }
}
