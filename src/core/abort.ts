/** A signal that never aborts, for callers that passed none. */
export const neverAbortedSignal: AbortSignal = new AbortController().signal;

/** Combines optional signals into one; returns the never-aborting signal when none is given. */
export function combineSignals(...signals: Array<AbortSignal | undefined>): AbortSignal {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length === 0) return neverAbortedSignal;
  if (present.length === 1) return present[0] as AbortSignal;
  return AbortSignal.any(present);
}
