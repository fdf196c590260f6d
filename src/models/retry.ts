/** How a failed attempt should be handled. */
export interface RetryDecision {
  retryable: boolean;
  /** What the server asked for (Retry-After), in ms. */
  retryAfterMs?: number;
}

/** Retry policy of one call. */
export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  signal?: AbortSignal;
  classify: (error: unknown) => RetryDecision;
}

/** The attempts ran out (or a failure was final): `lastError` is what the last attempt threw. */
export class RetryFailure extends Error {
  readonly lastError: unknown;
  readonly attempts: number;

  constructor(lastError: unknown, attempts: number) {
    super(lastError instanceof Error ? lastError.message : String(lastError), { cause: lastError });
    this.name = 'RetryFailure';
    this.lastError = lastError;
    this.attempts = attempts;
  }
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, the attempts run out,
 * or the server asks to wait longer than `maxDelayMs`. Waits exponentially (with
 * jitter), or as long as Retry-After says. Throws a RetryFailure carrying the last error;
 * a cancelled signal rejects with the signal's reason instead.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryOptions,
): Promise<{ value: T; attempts: number }> {
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return { value: await attempt(attemptNumber), attempts: attemptNumber };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      const decision = options.classify(error);
      const backoff = options.baseDelayMs * 2 ** (attemptNumber - 1) * (0.8 + Math.random() * 0.4);
      const delay = decision.retryAfterMs ?? backoff;
      if (
        !decision.retryable ||
        attemptNumber >= options.maxAttempts ||
        delay > options.maxDelayMs
      ) {
        throw new RetryFailure(error, attemptNumber);
      }
      await sleep(Math.min(delay, options.maxDelayMs), options.signal);
    }
  }
}

/** The wait a response asks for in `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(
  headers: Record<string, string | undefined> | undefined,
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
