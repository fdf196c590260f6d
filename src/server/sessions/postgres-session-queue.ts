import {
  causedByConnectionFailure,
  isConnectionFailure,
  type PostgresPool,
  queryPostgres,
} from '../../core/index.ts';
import { HttpError } from '../http/http-error.ts';
import type { PostgresNotifications } from '../scale-out/postgres-notifications.ts';
import type { LeaveQueue, SessionQueue } from './session-queue.ts';

/** The NOTIFY channel that says a session's line moved (payload: the session id). */
export const queueChannel = 'yeoul_queue';

/**
 * The instance of the request whose run is going on session $1 (or about to start): the
 * row that started, else the first to arrive.
 */
export const lineHolderSql =
  'SELECT instance_id FROM server_session_queue WHERE session_id = $1 ORDER BY started DESC, arrived_at, id LIMIT 1';

/** The instance of the request whose run is going on session $1 (none between runs). */
export const runningInstanceSql =
  'SELECT instance_id FROM server_session_queue WHERE session_id = $1 AND started LIMIT 1';

/** What the PostgreSQL session queue works with. */
export interface PostgresSessionQueueOptions {
  pool: PostgresPool;
  notifications: PostgresNotifications;
  /** This instance (the checkpointer's id): its rows are its requests. */
  instanceId: string;
  /** Whether an instance is alive (the checkpointer's heartbeats); dead ones' rows are removed. */
  isAlive(instanceId: string): Promise<boolean>;
  /** Requests that may wait on one session beyond the running one (YEOUL_SESSION_QUEUE_LIMIT). */
  limit: number;
  /** Stores the end of a run that failed because the database went away (once it is back). */
  closeRun(sessionId: string): Promise<unknown>;
  /** How often a waiting request looks again without a notification (default 1 000 ms). */
  pollMs?: number;
  /** How long a waiting request tolerates an unreachable database before failing (default 10 000 ms). */
  unavailableMs?: number;
}

/** A request's row in its session's line, and whether its request may run. */
interface Place {
  id: string;
  started: boolean;
}

interface StartRow extends Record<string, unknown> {
  state: 'started' | 'waiting' | 'gone';
  /** The instance of the row in the way (the running one, else the first to arrive). */
  blocker_instance: string | null;
}

/**
 * The session queue of instances sharing PostgreSQL: each request takes a row
 * (`yeoul_session_enqueue`: the bound counted and the row inserted under a per-session lock,
 * stamped with the time the request reached this instance), and runs when no row of its
 * session runs and none arrived before it (`yeoul_session_start` marks it started, under the
 * same lock). A request that is not first waits for a NOTIFY on `yeoul_queue` (sent when a row
 * is deleted), looking again every `pollMs` anyway; a row in the way whose instance died
 * (heartbeat older than the lease, or its process gone on this machine) is removed with every
 * row of that instance. A row is deleted when its
 * request ends — kept, and retried, while the database is unreachable; and a run that failed
 * because the database went away keeps its session's line until its end is stored, so that
 * the next request never finds it half-done.
 */
export class PostgresSessionQueue implements SessionQueue {
  #options: PostgresSessionQueueOptions;
  #pollMs: number;
  #waiters = new Map<string, Set<() => void>>();
  /** Notifications so far (any session): one that came while a waiter was looking is not lost. */
  #wakes = 0;
  /** Rows to delete (and runs to close first) once the database answers again. */
  #unfinished = new Map<string, { sessionId: string; closeRun: boolean; busy: boolean }>();
  #retry: NodeJS.Timeout;
  #active = 0;
  /** Ids of this instance's rows it knows of (until their deletion is confirmed). */
  #held = new Set<string>();
  #stopListening: Array<() => void>;

  constructor(options: PostgresSessionQueueOptions) {
    this.#options = options;
    this.#pollMs = options.pollMs ?? 1000;
    const wake = (sessionId: string) => {
      this.#wakes += 1;
      for (const waiter of this.#waiters.get(sessionId) ?? []) waiter();
    };
    this.#stopListening = [
      options.notifications.on(queueChannel, wake),
      options.notifications.onReconnect(() => {
        for (const sessionId of this.#waiters.keys()) wake(sessionId);
      }),
    ];
    this.#retry = setInterval(() => void this.#finishLeftovers(), this.#pollMs);
    this.#retry.unref();
  }

  get active(): number {
    return this.#active;
  }

  async busy(sessionId: string): Promise<boolean> {
    const { rows } = await queryPostgres<{ busy: boolean }>(
      this.#options.pool,
      'SELECT EXISTS (SELECT 1 FROM server_session_queue WHERE session_id = $1) AS busy',
      [sessionId],
    );
    return rows[0]?.busy === true;
  }

  async enter(sessionId: string, arrivedAt?: number, onPlaced?: () => void): Promise<LeaveQueue> {
    const place = await this.#enqueue(sessionId, arrivedAt);
    onPlaced?.();
    this.#active += 1;
    let left = false;
    const leave: LeaveQueue = (failure) => {
      if (left) return;
      left = true;
      this.#active -= 1;
      void this.#release(
        place.id,
        sessionId,
        failure !== undefined && causedByConnectionFailure(failure),
      );
    };
    try {
      await this.#waitForTurn(sessionId, place);
    } catch (error) {
      leave();
      throw error;
    }
    return leave;
  }

  /**
   * Takes the session's line only when nobody is in it (for closing a run left behind without
   * getting in a request's way); undefined when someone is.
   */
  async tryEnterIdle(sessionId: string): Promise<LeaveQueue | undefined> {
    const { rows } = await queryPostgres<{ queue_id: string | null }>(
      this.#options.pool,
      'SELECT queue_id FROM yeoul_session_enqueue($1, $2, 0, 0)',
      [sessionId, this.#options.instanceId],
    );
    const id = rows[0]?.queue_id;
    if (id == null) return undefined;
    this.#held.add(String(id));
    this.#active += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#active -= 1;
      void this.#release(String(id), sessionId, false);
    };
  }

  /** Removes the rows of instances that died (their requests will never leave). */
  async removeDeadInstances(): Promise<void> {
    const { rows } = await queryPostgres<{ instance_id: string }>(
      this.#options.pool,
      'SELECT DISTINCT instance_id FROM server_session_queue WHERE instance_id <> $1',
      [this.#options.instanceId],
    );
    for (const { instance_id: instanceId } of rows) {
      if (!(await this.#options.isAlive(instanceId))) await this.#removeInstance(instanceId);
    }
  }

  /**
   * Removes rows of this instance that no request of it holds: an insert whose answer was
   * lost with its connection would otherwise hold its session's line for good.
   */
  async removeStrayRows(): Promise<void> {
    await queryPostgres(
      this.#options.pool,
      `WITH gone AS (DELETE FROM server_session_queue
         WHERE instance_id = $1 AND created_at < now() - interval '10 seconds' AND NOT (id = ANY($2::bigint[]))
         RETURNING session_id)
       SELECT pg_notify('${queueChannel}', session_id) FROM (SELECT DISTINCT session_id FROM gone) s`,
      [this.#options.instanceId, [...this.#held]],
    );
  }

  /** Stops retrying and removes this instance's rows (best effort: the lease covers the rest). */
  async close(): Promise<void> {
    clearInterval(this.#retry);
    for (const stop of this.#stopListening) stop();
    await this.#finishLeftovers();
    await queryPostgres(
      this.#options.pool,
      `WITH gone AS (DELETE FROM server_session_queue WHERE instance_id = $1 RETURNING session_id)
       SELECT pg_notify('${queueChannel}', session_id) FROM (SELECT DISTINCT session_id FROM gone) s`,
      [this.#options.instanceId],
    ).catch(() => undefined);
  }

  /** Takes a place at the request's arrival (a `performance.now()` time; default now). */
  async #enqueue(sessionId: string, arrivedAt?: number): Promise<Place> {
    const { limit } = this.#options;
    // How long ago the request arrived, taken once a connection is in hand (a wait for one
    // counts as time before the place, not after) and set off the database's clock.
    const { rows } = await queryPostgres<{
      queue_id: string | null;
      ahead: number;
      started: boolean;
    }>(
      this.#options.pool,
      'SELECT queue_id, ahead, started FROM yeoul_session_enqueue($1, $2, $3, $4)',
      () => [
        sessionId,
        this.#options.instanceId,
        limit,
        arrivedAt === undefined ? 0 : performance.now() - arrivedAt,
      ],
    );
    const row = rows[0];
    if (row?.queue_id != null) this.#held.add(String(row.queue_id));
    if (row?.queue_id == null) {
      throw new HttpError({
        status: 409,
        code: 'session_busy',
        message: `session "${sessionId}" already has ${row?.ahead ?? limit + 1} requests running or waiting (YEOUL_SESSION_QUEUE_LIMIT is ${limit}); try again when they finish`,
      });
    }
    return { id: String(row.queue_id), started: row.started };
  }

  /** Resolves when the place's request may run (the place may be taken again meanwhile). */
  async #waitForTurn(sessionId: string, place: Place): Promise<void> {
    let unreachableSince: number | undefined;
    while (!place.started) {
      const wakes = this.#wakes;
      let turn: StartRow | undefined;
      try {
        turn = await this.#start(sessionId, place.id);
        if (turn.state === 'gone') {
          // The row was removed meanwhile (this instance was taken for dead while the database
          // was away): queue again, at the end.
          this.#held.delete(place.id);
          Object.assign(place, await this.#enqueue(sessionId));
          continue;
        }
        unreachableSince = undefined;
      } catch (error) {
        if (!isConnectionFailure(error)) throw error;
        unreachableSince ??= Date.now();
        if (Date.now() - unreachableSince > (this.#options.unavailableMs ?? 10_000)) throw error;
        await this.#sleep(sessionId, wakes);
        continue;
      }
      if (turn.state === 'started') return;
      const blocker = turn.blocker_instance;
      if (blocker != null && blocker !== this.#options.instanceId) {
        const alive = await this.#options.isAlive(blocker).catch(() => true);
        if (!alive) {
          await this.#removeInstance(blocker).catch(() => undefined);
          continue;
        }
      }
      await this.#sleep(sessionId, wakes);
    }
  }

  /** Starts the place when it is its turn (see `yeoul_session_start`). */
  async #start(sessionId: string, id: string): Promise<StartRow> {
    const { rows } = await queryPostgres<StartRow>(
      this.#options.pool,
      'SELECT state, blocker_instance FROM yeoul_session_start($1, $2)',
      [sessionId, id],
    );
    return rows[0] ?? { state: 'gone', blocker_instance: null };
  }

  /** Removes every row of an instance that died, waking the sessions it held. */
  async #removeInstance(instanceId: string): Promise<void> {
    await queryPostgres(
      this.#options.pool,
      `WITH gone AS (DELETE FROM server_session_queue WHERE instance_id = $1 RETURNING session_id)
       SELECT pg_notify('${queueChannel}', session_id) FROM (SELECT DISTINCT session_id FROM gone) s`,
      [instanceId],
    );
  }

  /**
   * Waits for a notification about the session, or `pollMs`; at once when one came (about
   * any session) since the waiter counted `wakes`.
   */
  #sleep(sessionId: string, wakes: number): Promise<void> {
    if (this.#wakes !== wakes) return Promise.resolve();
    return new Promise((resolve) => {
      let waiters = this.#waiters.get(sessionId);
      if (waiters === undefined) {
        waiters = new Set();
        this.#waiters.set(sessionId, waiters);
      }
      const set = waiters;
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && this.#waiters.get(sessionId) === set) this.#waiters.delete(sessionId);
        resolve();
      };
      const timer = setTimeout(done, this.#pollMs);
      set.add(done);
    });
  }

  async #release(id: string, sessionId: string, closeRun: boolean): Promise<void> {
    this.#unfinished.set(id, { sessionId, closeRun, busy: false });
    await this.#finish(id);
  }

  async #finish(id: string): Promise<void> {
    const item = this.#unfinished.get(id);
    if (item === undefined || item.busy) return;
    item.busy = true;
    try {
      if (item.closeRun) {
        // Only an unreachable database is worth waiting for; any other failure is left to
        // the next request on the session, which closes a run left behind itself.
        await this.#options.closeRun(item.sessionId).catch((error: unknown) => {
          if (isConnectionFailure(error)) throw error;
        });
        item.closeRun = false;
      }
      await queryPostgres(
        this.#options.pool,
        `WITH gone AS (DELETE FROM server_session_queue WHERE id = $1 RETURNING session_id)
         SELECT pg_notify('${queueChannel}', session_id) FROM gone`,
        [id],
      );
      this.#unfinished.delete(id);
      this.#held.delete(id);
    } catch {
      // Kept for the next round: a row left behind would hold its session's line.
    } finally {
      item.busy = false;
    }
  }

  async #finishLeftovers(): Promise<void> {
    for (const id of [...this.#unfinished.keys()]) await this.#finish(id);
  }
}
