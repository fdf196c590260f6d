/**
 * The runs going (or queued) in this process, by session: each run's controller, oldest
 * (the running one) first. Cancelling a run aborts its controller; `settle` waits for them
 * all to end when the process shuts down.
 */
export class ActiveRuns {
  readonly #bySession = new Map<string, AbortController[]>();
  /** Called whenever a run ends, for `settle`. */
  readonly #onRunEnd = new Set<() => void>();

  /** Records a run of the session; the function returned forgets it (call it when it ends). */
  track(sessionId: string, controller: AbortController): () => void {
    this.#bySession.set(sessionId, [...(this.#bySession.get(sessionId) ?? []), controller]);
    return () => {
      const rest = (this.#bySession.get(sessionId) ?? []).filter((entry) => entry !== controller);
      if (rest.length > 0) this.#bySession.set(sessionId, rest);
      else this.#bySession.delete(sessionId);
      for (const listener of this.#onRunEnd) listener();
    };
  }

  /** The controller of the session's run going now, if there is one. */
  running(sessionId: string): AbortController | undefined {
    return this.#bySession.get(sessionId)?.[0];
  }

  /** Whether a run of the session is going (or queued). */
  has(sessionId: string): boolean {
    return this.#bySession.has(sessionId);
  }

  /** Runs going (or queued), over all sessions. */
  get count(): number {
    let total = 0;
    for (const controllers of this.#bySession.values()) total += controllers.length;
    return total;
  }

  /**
   * Waits for the runs to end, up to `graceMs`; then cancels the rest (their open tool calls
   * closed) and waits for them.
   */
  async settle(graceMs: number): Promise<void> {
    const idle = () =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (this.#bySession.size > 0) return;
          this.#onRunEnd.delete(check);
          resolve();
        };
        this.#onRunEnd.add(check);
        check();
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    if ((await Promise.race([idle(), late])) === 'late') {
      for (const controllers of this.#bySession.values()) {
        for (const controller of controllers) {
          controller.abort(new Error('the server is shutting down'));
        }
      }
      await idle();
    }
    clearTimeout(timer);
  }
}
