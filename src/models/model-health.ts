import type { ModelCallError, ModelErrorCode } from './errors/model-call-error.ts';

/** A model's last failure, as the status endpoint shows it. */
export interface ModelFailureRecord {
  code: ModelErrorCode;
  /** What went wrong, secrets removed. */
  message: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** The `<provider>:<model id>` that failed. */
  model: string;
}

/** The latest successful model call: which model answered it, and when (ms since the epoch). */
export interface ModelAnswer {
  model: string;
  at: number;
}

/** Told of every failed model: the failure, the error, and the model the call moves on to (if any). */
export type FailureListener = (
  failure: ModelFailureRecord,
  error: ModelCallError,
  next: string | undefined,
) => void;

/** Key-like strings a provider may echo in an error message ("Incorrect API key provided: sk-…"). */
const secretPattern =
  /\b(?:sk|pk|rk|sess|key)-[A-Za-z0-9_*.-]{6,}|\bBearer\s+\S+|\b(?:api[_-]?key|token|secret)\s*[=:]\s*\S+/gi;

/** Removes key-like strings from a text meant for logs and status pages. */
export function redactSecrets(text: string): string {
  return text.replace(secretPattern, '[redacted]');
}

/**
 * How a model (or a chain of them) has been doing: its last failure, its latest answer,
 * whether its latest call found no model that answered, and listeners told of every
 * failure and every move to a fallback (the server logs and counts them).
 */
export class ModelHealth {
  lastError: ModelFailureRecord | null = null;
  lastSuccessAt: number | null = null;
  answeredBy: ModelAnswer | null = null;
  #failing = false;
  #failureListeners = new Set<FailureListener>();
  #fallbackListeners = new Set<(from: string, to: string) => void>();

  /** True while the latest call failed: no model answered it. */
  get failing(): boolean {
    return this.#failing;
  }

  /** A call was answered (by `model`, when known). */
  recordSuccess(model?: string): void {
    const at = Date.now();
    this.lastSuccessAt = at;
    if (model !== undefined) this.answeredBy = { model, at };
    this.#failing = false;
  }

  /**
   * A model failed. With `next`, the call moves on to that model and has not failed yet;
   * without, the call failed.
   */
  recordFailure(error: ModelCallError, next?: string): void {
    const failure: ModelFailureRecord = {
      code: error.code,
      message: redactSecrets(error.message),
      at: Date.now(),
      model: error.model ?? 'unknown',
    };
    this.lastError = failure;
    if (next === undefined) this.#failing = true;
    for (const listener of this.#failureListeners) listener(failure, error, next);
    if (next !== undefined)
      for (const listener of this.#fallbackListeners) listener(failure.model, next);
  }

  /** Calls `listener` on every failure from now on; returns the function that stops it. */
  onFailure(listener: FailureListener): () => void {
    this.#failureListeners.add(listener);
    return () => this.#failureListeners.delete(listener);
  }

  /** Calls `listener` each time a call moves from one model to the next; returns the function that stops it. */
  onFallback(listener: (from: string, to: string) => void): () => void {
    this.#fallbackListeners.add(listener);
    return () => this.#fallbackListeners.delete(listener);
  }
}
