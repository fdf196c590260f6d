/** Fields of an error that say what failed and never carry data: codes, names, places. */
const plainFields = [
  'code',
  'errcode',
  'errno',
  'syscall',
  'status',
  'statusCode',
  'severity',
  'store',
  'target',
  'reason',
  'node',
  'tool',
] as const;

/** What a log line holds of an error. */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  cause?: LoggedError;
  [field: string]: unknown;
}

/** `scheme://user:password@host` → `scheme://user:***@host`, anywhere in a text. */
export function hideUrlPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1:***@');
}

/**
 * An error as log lines show it: its type, message, stack, the plain fields that say what
 * failed (code, errno, store, target…) and its causes, a few deep. Nothing else: a driver's
 * error may hold its client object, its connection settings or the statement's text, and
 * none of that may reach a log. Passwords in URLs are hidden.
 * @example
 * pino({ serializers: { err: serializeError } });
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: hideUrlPasswords(String(error)) };
  }
  const logged: LoggedError = {
    type: error.constructor?.name ?? error.name,
    message: hideUrlPasswords(error.message),
  };
  if (error.stack) logged.stack = hideUrlPasswords(error.stack);
  const fields = error as unknown as Record<string, unknown>;
  for (const name of plainFields) {
    const value = fields[name];
    if (typeof value === 'string') logged[name] = hideUrlPasswords(value);
    else if (typeof value === 'number' || typeof value === 'boolean') logged[name] = value;
  }
  if (error instanceof AggregateError && depth < 3) {
    logged.errors = error.errors.slice(0, 3).map((inner) => serializeError(inner, depth + 1));
  }
  if (error.cause !== undefined && depth < 3) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}
