/**
 * An error the fake answers with, in OpenSearch's body shape:
 * `{"error": {"root_cause": [...], "type", "reason", ...}, "status"}`.
 */
export class FakeOpenSearchError extends Error {
  readonly status: number;
  readonly type: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, type: string, reason: string, extra: Record<string, unknown> = {}) {
    super(reason);
    this.status = status;
    this.type = type;
    this.extra = extra;
  }

  /** A request shape the fake does not implement: refused (400) so that nothing passes by being ignored. */
  static unsupported(what: string): FakeOpenSearchError {
    return new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      `fake-opensearch does not implement ${what}`,
    );
  }

  /** `index_not_found_exception` (404) for a missing index or alias. */
  static indexNotFound(name: string): FakeOpenSearchError {
    return new FakeOpenSearchError(404, 'index_not_found_exception', `no such index [${name}]`, {
      'resource.type': 'index_or_alias',
      'resource.id': name,
      index: name,
    });
  }

  /** The error object of a body or of a bulk item. */
  errorObject(): Record<string, unknown> {
    const cause = { type: this.type, reason: this.message, ...this.extra };
    return { root_cause: [cause], ...cause };
  }

  /** The whole response body. */
  body(): Record<string, unknown> {
    return { error: this.errorObject(), status: this.status };
  }
}

/** Refuses any key of `value` outside `allowed` (an unknown key would otherwise be ignored). */
export function allowKeys(
  value: unknown,
  allowed: readonly string[],
  where: string,
): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new FakeOpenSearchError(400, 'parsing_exception', `[${where}] must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw FakeOpenSearchError.unsupported(`[${key}] in ${where}`);
  }
  return value as Record<string, unknown>;
}
