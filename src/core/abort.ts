/** A signal that never aborts, for callers that passed none. */
export const neverAbortedSignal: AbortSignal = new AbortController().signal;

/** Combines optional signals into one; returns the never-aborting signal when none is given. */
export function combineSignals(...signals: Array<AbortSignal | undefined>): AbortSignal {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length === 0) return neverAbortedSignal;
  if (present.length === 1) return present[0] as AbortSignal;
  return AbortSignal.any(present);
}

/** A signal for one call: see `scopedSignal`. */
export interface ScopedSignal {
  signal: AbortSignal;
  /** True once the time limit (not the parent) aborted the signal. */
  readonly timedOut: boolean;
  /** Stops the timer and lets go of the parent; call it when the call is over. */
  release(): void;
}

/**
 * A signal that aborts when `parent` does or after `timeoutMs` (with a `TimeoutError`, as
 * `AbortSignal.timeout` does), for one call. Unlike `AbortSignal.any([parent,
 * AbortSignal.timeout(ms)])`, nothing outlives the call once released: the timeout
 * signal keeps its timer for the whole limit even when the call took 2 ms — at 1 000
 * calls a second with a 60 s limit, 60 000 live timers and signals — and `any` leaves
 * weak references on long-lived parents.
 */
export function scopedSignal(parent: AbortSignal | undefined, timeoutMs?: number): ScopedSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
        }, timeoutMs);
  timer?.unref();
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    release() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
