/**
 * The places for background runs (`POST /api/runs`, schedules, runs taken up after a restart)
 * running at once in this instance (`YEOUL_BACKGROUND_RUNS`): a run whose session turn came
 * waits, still `queued`, for a place, first come first served. A burst of runs started at once
 * then never runs a burst of model calls at once, and starting one stays a quick write while
 * others run.
 * @example
 * const slots = new RunSlots(32);
 * const release = await slots.take();
 * try { await run(); } finally { release(); }
 */
export class RunSlots {
  readonly limit: number;
  #running = 0;
  #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Runs holding a place now. */
  get running(): number {
    return this.#running;
  }

  /** Runs waiting for a place. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * A place, at once when one is free (`waited` false), else once an earlier run gives its
   * place back; `release` gives it back (once). A wait that `signal` aborts leaves the line
   * and rejects with the signal's reason.
   */
  take(
    signal?: AbortSignal,
  ): { waited: false; release: () => void } | Promise<{ waited: true; release: () => void }> {
    if (this.#running < this.limit) {
      this.#running += 1;
      return { waited: false, release: this.#releaser() };
    }
    return new Promise((resolve, reject) => {
      const waiter = () => {
        signal?.removeEventListener('abort', abort);
        resolve({ waited: true, release: this.#releaser() });
      };
      const abort = () => {
        this.#waiting = this.#waiting.filter((entry) => entry !== waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The place goes straight to the next run: the count stays.
      if (next === undefined) this.#running -= 1;
      else next();
    };
  }
}
