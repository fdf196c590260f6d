/** What a YeoulApiError is made from: the answer's status and its `{error: {code, message}}`. */
export interface YeoulApiErrorInit {
  /** The HTTP status; 0 when no answer came (network failure, a stream that could not be rejoined). */
  status: number;
  code: string;
  message: string;
  details?: unknown;
  /** The answer's `x-request-id`: the id of the server's log lines for this request. */
  requestId?: string;
  cause?: unknown;
}

/**
 * An error answer of the Yeoul API (`{error: {code, message}}` with its status), or a
 * request that got no answer (`status` 0: `network_error`, `stream_interrupted`,
 * `invalid_event`).
 * @example
 * try { await client.sessions.get('nope'); }
 * catch (error) { if (error instanceof YeoulApiError && error.code === 'not_found') …; }
 */
export class YeoulApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string | undefined;

  constructor(init: YeoulApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'YeoulApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }

  /** The error as `{code, message}`, the shape of the API's error bodies. */
  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}
