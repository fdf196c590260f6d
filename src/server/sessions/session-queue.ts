/**
 * Ends a request's place in its session's line (idempotent). `failure` is the error the
 * request ended with, if any: a queue shared through a database may keep the place until the
 * run's end is stored (see PostgresSessionQueue).
 */
export type LeaveQueue = (failure?: unknown) => void;

/**
 * Where a session's requests wait for their turn, and the bound on how many may wait
 * (`YEOUL_SESSION_QUEUE_LIMIT`, 409 `session_busy` beyond it). In one process (SQLite) the
 * graph's thread queue already runs a session's requests in order, so the in-process queue
 * only counts and answers at once; across instances (PostgreSQL) `enter` resolves when it is
 * the request's turn.
 */
export interface SessionQueue {
  /**
   * Takes a place in the session's line; throws 409 when `limit` requests already wait.
   * `arrivedAt` (a `performance.now()` time) is when the request reached this process: across
   * instances the line follows arrival, not the moment the place reaches the database.
   */
  enter(
    sessionId: string,
    arrivedAt?: number,
    /** Called once the place is taken, before the turn comes (a refusal never calls it). */
    onPlaced?: () => void,
  ): LeaveQueue | Promise<LeaveQueue>;
  /** Whether a request of the session runs or waits (in any instance sharing the line). */
  busy(sessionId: string): boolean | Promise<boolean>;
  /** Requests running or waiting in this process, over all sessions. */
  readonly active: number;
}
