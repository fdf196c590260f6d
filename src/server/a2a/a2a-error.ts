import { YeoulError } from '../../core/index.ts';
import { errorResponse } from '../http/http-error.ts';

/** A2A's JSON-RPC error codes (and JSON-RPC's own), by what they mean. */
export const a2aCodes = {
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  extendedCardNotConfigured: -32007,
  versionNotSupported: -32009,
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** How each JSON-RPC code reads over HTTP+JSON: status, its gRPC name, the ErrorInfo reason. */
const restOfCode: Record<number, { status: number; name: string; reason: string }> = {
  [-32001]: { status: 404, name: 'NOT_FOUND', reason: 'TASK_NOT_FOUND' },
  [-32002]: { status: 409, name: 'FAILED_PRECONDITION', reason: 'TASK_NOT_CANCELABLE' },
  [-32003]: { status: 400, name: 'FAILED_PRECONDITION', reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' },
  [-32004]: { status: 409, name: 'FAILED_PRECONDITION', reason: 'UNSUPPORTED_OPERATION' },
  [-32005]: { status: 400, name: 'INVALID_ARGUMENT', reason: 'CONTENT_TYPE_NOT_SUPPORTED' },
  [-32007]: {
    status: 400,
    name: 'FAILED_PRECONDITION',
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  },
  [-32009]: { status: 400, name: 'FAILED_PRECONDITION', reason: 'VERSION_NOT_SUPPORTED' },
  [-32700]: { status: 400, name: 'INVALID_ARGUMENT', reason: 'PARSE_ERROR' },
  [-32600]: { status: 400, name: 'INVALID_ARGUMENT', reason: 'INVALID_REQUEST' },
  [-32601]: { status: 404, name: 'NOT_FOUND', reason: 'METHOD_NOT_FOUND' },
  [-32602]: { status: 400, name: 'INVALID_ARGUMENT', reason: 'INVALID_PARAMS' },
  [-32603]: { status: 500, name: 'INTERNAL', reason: 'INTERNAL_ERROR' },
};

/** gRPC status names of the HTTP statuses Yeoul's own refusals carry. */
const nameOfStatus: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  404: 'NOT_FOUND',
  409: 'FAILED_PRECONDITION',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
};

/**
 * An A2A refusal: its JSON-RPC code, the HTTP status it has over HTTP+JSON when not the
 * code's usual one (another owner's `contextId`: 404), and data naming the problem.
 */
export class A2aError extends YeoulError {
  readonly rpcCode: number;
  readonly httpStatus: number | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(fields: {
    rpcCode: number;
    message: string;
    data?: Record<string, unknown>;
    httpStatus?: number;
  }) {
    super('a2a_error', fields.message);
    this.rpcCode = fields.rpcCode;
    this.httpStatus = fields.httpStatus;
    this.data = fields.data;
  }
}

/** An error as A2A says it: a JSON-RPC code, a message, data with Yeoul's code, an HTTP status. */
export interface A2aFailure {
  rpcCode: number;
  message: string;
  data?: Record<string, unknown>;
  httpStatus: number;
  statusName: string;
  reason: string;
}

/**
 * Any error as A2A says it: an `A2aError` as thrown; Yeoul's refusals by their HTTP status
 * (400, 404, 409, 413 → invalid params, with `data.code`; 429, 5xx → internal error), a
 * decision made already → unsupported operation (the task no longer waits for it).
 */
export function a2aFailureOf(error: unknown): A2aFailure {
  if (error instanceof A2aError) {
    const rest = restOfCode[error.rpcCode] ?? restOfCode[-32603];
    return {
      rpcCode: error.rpcCode,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
      httpStatus: error.httpStatus ?? rest?.status ?? 500,
      statusName: error.httpStatus === 404 ? 'NOT_FOUND' : (rest?.name ?? 'INTERNAL'),
      reason: rest?.reason ?? 'INTERNAL_ERROR',
    };
  }
  const { status, body } = errorResponse(error);
  const { code, message, details } = body.error;
  const data = { code, ...(details === undefined ? {} : { details }) };
  const rpcCode =
    code === 'already_decided'
      ? a2aCodes.unsupportedOperation
      : status >= 400 && status < 429
        ? a2aCodes.invalidParams
        : a2aCodes.internalError;
  return {
    rpcCode,
    message,
    data,
    httpStatus: status,
    statusName: nameOfStatus[status] ?? 'INTERNAL',
    reason: code.toUpperCase(),
  };
}

/** A JSON-RPC error response. */
export function rpcErrorOf(id: unknown, failure: A2aFailure) {
  return {
    jsonrpc: '2.0' as const,
    id: id ?? null,
    error: {
      code: failure.rpcCode,
      message: failure.message,
      ...(failure.data === undefined ? {} : { data: failure.data }),
    },
  };
}

/** An HTTP+JSON error body: google.rpc.Status with an ErrorInfo. */
export function restErrorOf(failure: A2aFailure) {
  return {
    error: {
      code: failure.httpStatus,
      status: failure.statusName,
      message: failure.message,
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: failure.reason,
          domain: 'a2a-protocol.org',
          ...(failure.data === undefined ? {} : { metadata: stringValues(failure.data) }),
        },
      ],
    },
  };
}

/** ErrorInfo metadata is a map of strings. */
function stringValues(data: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}
