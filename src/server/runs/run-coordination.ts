import { MemorySessionQueue } from '../sessions/memory-session-queue.ts';
import type { SessionQueue } from '../sessions/session-queue.ts';
import type { CancelReason } from './run-store.ts';
import { type RunStreamHub, RunStreams } from './run-streams.ts';

/**
 * How the server's requests share sessions: the line a session's requests wait in, where
 * runs record events for joiners, and how to stop a run another instance is running. One
 * process (the embedded store) needs nothing beyond this process; instances sharing
 * PostgreSQL go through the database (`openPostgresCoordination`).
 */
export interface RunCoordination {
  queue: SessionQueue;
  streams: RunStreamHub;
  /**
   * Asks the instance running the session's run to stop it (the run is not in this
   * process); true when such an instance was found and told.
   */
  cancelElsewhere(sessionId: string, reason?: CancelReason): Promise<boolean>;
  /**
   * Closes the session's run marked running by another live instance that holds no place in
   * the session's line (so runs it no longer); true when one was closed. Called by the request
   * that holds the line and found such a run in its way.
   */
  closeLeftBehind(sessionId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The coordination of a single process: the per-process queue bound and in-memory streams. */
export function localCoordination(queueLimit: number): RunCoordination {
  return {
    queue: new MemorySessionQueue(queueLimit),
    streams: new RunStreams(),
    cancelElsewhere: async () => false,
    closeLeftBehind: async () => false,
    close: async () => undefined,
  };
}
