/** Options every Yeoul error accepts: the lower-level error that caused it. */
export interface YeoulErrorOptions {
  cause?: unknown;
}

/**
 * Base of every error Yeoul throws on purpose. `code` is a stable, machine-readable
 * string (`graph_recursion_limit`, `run_cancelled`, …); the message is for people.
 * Domain errors know nothing of HTTP: the server maps `code` to a status in one place.
 */
export class YeoulError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: YeoulErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }

  /** The `{code, message}` pair used in API error bodies and stored run records. */
  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** True when `value` is a YeoulError, optionally with the given code. */
export function isYeoulError(value: unknown, code?: string): value is YeoulError {
  return value instanceof YeoulError && (code === undefined || value.code === code);
}
