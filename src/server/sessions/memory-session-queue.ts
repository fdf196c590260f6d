import { HttpError } from '../http/http-error.ts';
import type { SessionQueue } from './session-queue.ts';

/**
 * How many requests wait on each session in this process: beyond `queueLimit` waiting
 * requests a session answers 409. The session queue of one process (the embedded store):
 * the graph's thread queue does the ordering.
 */
export class MemorySessionQueue implements SessionQueue {
  #queueLimit: number;
  #inFlight = new Map<string, number>();

  constructor(queueLimit: number) {
    this.#queueLimit = queueLimit;
  }

  /** Counts a request in; throws 409 when the session already has `queueLimit` waiting. */
  enter(sessionId: string): () => void {
    const current = this.#inFlight.get(sessionId) ?? 0;
    if (current > this.#queueLimit) {
      throw new HttpError({
        status: 409,
        code: 'session_busy',
        message: `session "${sessionId}" already has ${current} requests running or waiting (YEOUL_SESSION_QUEUE_LIMIT is ${this.#queueLimit}); try again when they finish`,
      });
    }
    this.#inFlight.set(sessionId, current + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = (this.#inFlight.get(sessionId) ?? 1) - 1;
      if (remaining <= 0) this.#inFlight.delete(sessionId);
      else this.#inFlight.set(sessionId, remaining);
    };
  }

  /** Whether a request of the session runs or waits. */
  busy(sessionId: string): boolean {
    return this.#inFlight.has(sessionId);
  }

  /** Requests running or waiting, over all sessions. */
  get active(): number {
    let total = 0;
    for (const count of this.#inFlight.values()) total += count;
    return total;
  }
}
