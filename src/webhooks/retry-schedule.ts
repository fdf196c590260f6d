/** At most this many attempts per delivery; after the last one fails the delivery is `failed`. */
export const maxAttempts = 8;

/** The waits before attempts 2 … 8: 1 s, 5 s, 30 s, 2 min, 10 min, 1 h, 6 h. */
export const defaultRetryWaitsMs: readonly number[] = [
  1_000, 5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000,
];

/** The longest a `Retry-After` may push the next attempt back (6 h). */
export const maxRetryAfterMs = 21_600_000;

/** What decides the wait after a failed attempt. */
export interface RetryWaitInput {
  /** The attempt just made (1 for the first). */
  attempt: number;
  /** The waits before attempts 2 …, each varied by ±10 %. */
  waitsMs?: readonly number[];
  /** A number in [0, 1) (Math.random unless a test gives its own). */
  random?: () => number;
  /** The answer's status, when one came. */
  status: number | null;
  /** The answer's `Retry-After` header, when it had one. */
  retryAfter?: string | undefined;
}

/**
 * How long to wait before the next attempt: the schedule's wait ±10 %, replaced by a longer
 * `Retry-After` (seconds) on a 429 or 503, up to 6 h.
 * @example
 * retryWaitMs({ attempt: 1, status: 500 }); // 900–1100
 */
export function retryWaitMs(input: RetryWaitInput): number {
  const waits = input.waitsMs ?? defaultRetryWaitsMs;
  const base = waits[Math.min(input.attempt, waits.length) - 1] ?? 0;
  const jitter = 1 + ((input.random ?? Math.random)() * 2 - 1) * 0.1;
  const wait = Math.round(base * jitter);
  if (input.status !== 429 && input.status !== 503) return wait;
  const asked = retryAfterMs(input.retryAfter);
  return asked !== undefined && asked > wait ? Math.min(asked, maxRetryAfterMs) : wait;
}

/** A `Retry-After` of whole seconds, in milliseconds; undefined for anything else. */
export function retryAfterMs(header: string | undefined): number | undefined {
  const text = header?.trim();
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  return Number(text) * 1000;
}
