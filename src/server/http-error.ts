import { YeoulError } from '../core/index.ts';

/** An error with an HTTP status, thrown by route handlers for the one place that answers errors. */
export class HttpError extends YeoulError {
  readonly status: number;
  readonly details: unknown;

  constructor(fields: { status: number; code: string; message: string; details?: unknown }) {
    super(fields.code, fields.message);
    this.status = fields.status;
    this.details = fields.details;
  }
}

/** HTTP statuses of domain error codes: the only place that knows both. */
const statusOfCode: Record<string, number> = {
  invalid_request: 400,
  empty_input: 400,
  invalid_input: 400,
  graph_invalid_run_config: 400,
  unauthorized: 401,
  not_found: 404,
  session_busy: 409,
  run_pending: 409,
  checkpoint_conflict: 409,
  input_too_long: 413,
  payload_too_large: 413,
  document_unsupported: 415,
  rate_limited: 429,
  model_call_failed: 503,
  model_config: 500,
};

/** The status and body of any error, in the contract's shape `{error: {code, message}}`. */
export function errorResponse(error: unknown): {
  status: number;
  body: { error: { code: string; message: string; details?: unknown } };
} {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      body: {
        error: {
          code: error.code,
          message: error.message,
          ...(error.details === undefined ? {} : { details: error.details }),
        },
      },
    };
  }
  if (error instanceof YeoulError) {
    return {
      status: statusOfCode[error.code] ?? 500,
      body: { error: { code: error.code, message: error.message } },
    };
  }
  const fastify = error as { statusCode?: number; code?: string; message?: string };
  if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: {
        error: { code: 'payload_too_large', message: 'the request body is larger than the limit' },
      },
    };
  }
  if (
    typeof fastify.statusCode === 'number' &&
    fastify.statusCode >= 400 &&
    fastify.statusCode < 500
  ) {
    return {
      status: fastify.statusCode,
      body: {
        error: { code: 'invalid_request', message: fastify.message ?? 'the request is not valid' },
      },
    };
  }
  return {
    status: 500,
    body: {
      error: { code: 'internal_error', message: 'something went wrong; the error was logged' },
    },
  };
}
