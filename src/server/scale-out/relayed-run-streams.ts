import { queryPostgres } from '../../core/index.ts';
import {
  type FollowableStream,
  type RunStream,
  type RunStreamHub,
  RunStreams,
} from '../runs/run-streams.ts';
import { lineHolderSql } from '../sessions/postgres-session-queue.ts';
import { EventRelay, endOfRun } from './event-relay.ts';
import { RemoteRunStream, type RemoteStreamDeps } from './remote-run-stream.ts';

interface LatestRunRow extends Record<string, unknown> {
  run_key: string;
  instance_id: string;
  ended: boolean;
}

/**
 * Run streams shared by instances through PostgreSQL: runs of this instance are recorded
 * here as in one process and relayed to `server_run_events` (EventRelay); a client joining a
 * session whose run is not here follows the latest run in the database (RemoteRunStream),
 * under the same rule as locally: a going run, or a finished one its `Last-Event-ID` names.
 */
export class RelayedRunStreams implements RunStreamHub {
  #local = new RunStreams();
  #relay: EventRelay;
  #deps: RemoteStreamDeps;
  #instanceId: string;

  constructor(deps: RemoteStreamDeps, instanceId: string) {
    this.#deps = deps;
    this.#instanceId = instanceId;
    this.#relay = new EventRelay(deps.pool, instanceId);
  }

  open(sessionId: string, runKey: string, firstN = 1): RunStream {
    const stream = this.#local.open(sessionId, runKey, firstN);
    this.#relay.record(stream);
    return stream;
  }

  finish(stream: RunStream): void {
    this.#local.finish(stream);
  }

  async joinable(
    sessionId: string,
    lastEventId: string | undefined,
  ): Promise<FollowableStream | undefined> {
    const local = this.#local.joinable(sessionId, lastEventId);
    if (local !== undefined) return local;
    let latest = await this.#latestRun(sessionId);
    const named = (run: LatestRunRow | undefined) =>
      run !== undefined && lastEventId?.startsWith(`${run.run_key}:`) === true;
    if ((latest === undefined || latest.ended) && !named(latest)) {
      // A run may be starting in another instance, its first event on the way to the database.
      latest = await this.#runStartingElsewhere(sessionId, latest?.run_key);
    }
    if (latest === undefined) return undefined;
    if (latest.ended && !named(latest)) return undefined;
    if (!latest.ended && !(await this.#deps.isAlive(latest.instance_id))) return undefined;
    return new RemoteRunStream(this.#deps, {
      runKey: latest.run_key,
      instanceId: latest.instance_id,
    });
  }

  async #latestRun(sessionId: string): Promise<LatestRunRow | undefined> {
    const { rows } = await queryPostgres<LatestRunRow>(
      this.#deps.pool,
      `SELECT run_key, min(instance_id) AS instance_id, bool_or(event = '${endOfRun}') AS ended
       FROM server_run_events
       WHERE run_key = (SELECT run_key FROM server_run_events WHERE session_id = $1
         ORDER BY id DESC LIMIT 1)
       GROUP BY run_key`,
      [sessionId],
    );
    return rows[0];
  }

  /**
   * The session's new run when another live instance is first in the session's line (its
   * run starting), once its first event is stored — looked for during a second at most.
   */
  async #runStartingElsewhere(
    sessionId: string,
    previousKey: string | undefined,
  ): Promise<LatestRunRow | undefined> {
    const { rows } = await queryPostgres<{ instance_id: string }>(this.#deps.pool, lineHolderSql, [
      sessionId,
    ]);
    const holder = rows[0]?.instance_id;
    if (holder === undefined || holder === this.#instanceId) return undefined;
    if (!(await this.#deps.isAlive(holder))) return undefined;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const latest = await this.#latestRun(sessionId);
      if (latest !== undefined && latest.run_key !== previousKey) return latest;
    }
    return undefined;
  }

  async close(): Promise<void> {
    await this.#relay.flush();
  }
}
