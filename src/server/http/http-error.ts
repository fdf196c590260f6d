import { approvalOf } from '../../agents/index.ts';
import {
  isDiskFull,
  StoreUnavailableError,
  toSqliteStoreError,
  YeoulError,
} from '../../core/index.ts';
import type { PendingInterrupt } from '../../graph/index.ts';

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
  empty_document: 400,
  graph_invalid_run_config: 400,
  invalid_fork_point: 400,
  invalid_memory_name: 400,
  unauthorized: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  not_found: 404,
  thread_not_found: 404,
  no_active_run: 404,
  interrupt_not_found: 404,
  graph_not_found: 404,
  graph_mismatch: 409,
  method_not_allowed: 405,
  session_busy: 409,
  run_pending: 409,
  thread_exists: 409,
  run_not_resumable: 409,
  checkpoint_conflict: 409,
  run_interrupted: 409,
  interrupt_answered: 409,
  run_not_interrupted: 409,
  input_too_long: 413,
  payload_too_large: 413,
  memory_value_too_large: 413,
  document_unsupported: 415,
  unsupported_encoding: 415,
  unsupported_media_type: 415,
  rate_limited: 429,
  budget_exceeded: 429,
  search_unavailable: 503,
  search_index_write_failed: 503,
  search_index_mismatch: 500,
  search_config_invalid: 500,
  store_unavailable: 503,
  shutting_down: 503,
  model_config: 500,
};

/**
 * The codes clients see for the graph runtime's neutral ones: over HTTP (and so the CLI,
 * `/v1` and MCP) a paused run waits for approval and an answered interrupt was decided.
 */
const clientCodeOf: Record<string, string> = {
  run_interrupted: 'awaiting_approval',
  interrupt_answered: 'already_decided',
  run_not_interrupted: 'not_interrupted',
};

/** The contract's error body. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/** What a request's limits were, for 413 messages that name them. */
export interface RequestLimits {
  bodyLimit?: number;
  uploadLimit?: number;
}

/** The status and body of any error, in the contract's shape `{error: {code, message}}`. */
export function errorResponse(
  error: unknown,
  limits: RequestLimits = {},
): { status: number; body: ErrorBody } {
  const reply = (status: number, code: string, message: string, details?: unknown) => ({
    status,
    body: { error: { code, message, ...(details === undefined ? {} : { details }) } },
  });
  if (error instanceof HttpError)
    return reply(error.status, error.code, error.message, error.details);
  // The store going away inside a step (a search in the router, say) is still the store's fault.
  const store = storeFailureIn(error);
  if (store !== undefined) return reply(503, store.code, store.message);
  if (error instanceof YeoulError) {
    // A run waiting for approval names the calls that wait, as clients see them elsewhere.
    const pending = (error as { interrupts?: PendingInterrupt[] }).interrupts;
    const details = pending ? { interrupts: pending.map(approvalOf) } : undefined;
    const code = clientCodeOf[error.code] ?? error.code;
    return reply(statusOfCode[error.code] ?? 500, code, error.message, details);
  }
  const framework = error as { statusCode?: number; code?: string; message?: string };
  switch (framework.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply(
        413,
        'payload_too_large',
        `the request body is larger than the limit of ${formatBytes(limits.bodyLimit)}${limits.bodyLimit === undefined ? '' : ' (YEOUL_BODY_LIMIT for JSON requests)'}`,
      );
    case 'FST_REQ_FILE_TOO_LARGE':
      return reply(
        413,
        'payload_too_large',
        `an uploaded file is larger than the limit of ${formatBytes(limits.uploadLimit)} per file`,
      );
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return reply(413, 'payload_too_large', `too many parts in the upload: ${framework.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply(
        415,
        'unsupported_media_type',
        'this content type is not accepted here: send application/json (or multipart/form-data to /api/documents)',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return reply(400, 'invalid_request', `the body is not valid JSON: ${framework.message}`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return reply(
        414,
        'uri_too_long',
        'a path segment is too long (ids are at most 200 characters)',
      );
    case 'FST_ERR_BAD_URL':
      return reply(400, 'invalid_request', 'the URL is not valid');
  }
  if (error instanceof SyntaxError) {
    return reply(400, 'invalid_request', `the body is not valid JSON: ${error.message}`);
  }
  const status = framework.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return reply(status, 'invalid_request', framework.message ?? 'the request is not valid');
  }
  return reply(500, 'internal_error', 'something went wrong; the error was logged');
}

/**
 * The StoreUnavailableError that `error` is or was caused by (a few causes deep), if any; a
 * full disk met by a write outside the store's batch counts as one too.
 */
function storeFailureIn(error: unknown): StoreUnavailableError | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof StoreUnavailableError) return current;
    if (isDiskFull(current)) return toSqliteStoreError(current) as StoreUnavailableError;
    current = current.cause;
  }
  return undefined;
}

/** The headers an error's answer carries: `retry-after` (whole seconds) for a refusal that says when to retry. */
export function errorHeaders(error: unknown): Record<string, string> {
  const seconds = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return error instanceof YeoulError && typeof seconds === 'number'
    ? { 'retry-after': String(seconds) }
    : {};
}

/** "1 MiB", "20 MiB", "1536 bytes". */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return 'the configured size';
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
