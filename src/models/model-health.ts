import type { ModelCallError, ModelErrorCode } from './errors/model-call-error.ts';

/** A model's last failure, as the status endpoint shows it. */
export interface ModelFailureRecord {
  code: ModelErrorCode;
  /** What went wrong, secrets removed. */
  message: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** Key-like strings a provider may echo in an error message ("Incorrect API key provided: sk-…"). */
const secretPattern =
  /\b(?:sk|pk|rk|sess|key)-[A-Za-z0-9_*.-]{6,}|\bBearer\s+\S+|\b(?:api[_-]?key|token|secret)\s*[=:]\s*\S+/gi;

/** Removes key-like strings from a text meant for logs and status pages. */
export function redactSecrets(text: string): string {
  return text.replace(secretPattern, '[redacted]');
}

/**
 * How a model has been doing: its last failure and last success, and listeners told of
 * every failure (the server logs and counts them).
 */
export class ModelHealth {
  lastError: ModelFailureRecord | null = null;
  lastSuccessAt: number | null = null;
  #listeners = new Set<(failure: ModelFailureRecord, error: ModelCallError) => void>();

  /** True while the last call failed (no success since the last failure). */
  get failing(): boolean {
    return this.lastError !== null && (this.lastSuccessAt ?? 0) < this.lastError.at;
  }

  recordSuccess(): void {
    this.lastSuccessAt = Date.now();
  }

  recordFailure(error: ModelCallError): void {
    const failure = { code: error.code, message: redactSecrets(error.message), at: Date.now() };
    this.lastError = failure;
    for (const listener of this.#listeners) listener(failure, error);
  }

  /** Calls `listener` on every failure from now on; returns the function that stops it. */
  onFailure(listener: (failure: ModelFailureRecord, error: ModelCallError) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
