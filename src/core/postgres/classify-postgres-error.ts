import { StoreUnavailableError } from '../errors/store-unavailable-error.ts';

/** Socket errors that mean the server cannot be reached (or stopped answering). */
const unreachableSocketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server going away or refusing work for now: admin, crash and start-up
 * shutdowns, too many connections, and a statement cancelled by `statement_timeout`
 * (class 08, connection exceptions, is matched as a whole but for protocol violations).
 */
const unavailableSqlStates = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** Messages `pg` gives, without a code, when a connection breaks or never opens in time. */
const driverMessages =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|Connection ended/i;

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node's happy-eyeballs connect reports an AggregateError of one error per address.
  const inner = (error as { errors?: unknown[] }).errors?.[0];
  return inner === undefined ? undefined : codeOf(inner);
}

/** True when `error` means the database is unreachable or not serving, rather than a bad query. */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const code = codeOf(error);
  if (code !== undefined) {
    if (unreachableSocketCodes.has(code) || unavailableSqlStates.has(code)) return true;
    // 08P01 (protocol violation) is a bug on this side, not the server going away.
    if (/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01') return true;
  }
  return error instanceof Error && driverMessages.test(error.message);
}

/**
 * True when `error` or one of its causes (a few deep) means the database is unreachable: a
 * run that failed inside a node, say, because its store went away.
 */
export function causedByConnectionFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    if (isConnectionFailure(current)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

function reasonOf(error: unknown): string {
  const code = codeOf(error);
  const message =
    error instanceof Error && error.message !== ''
      ? error.message
      : error instanceof AggregateError
        ? String(error.errors[0])
        : String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Turns a connection failure into a `StoreUnavailableError` (code `store_unavailable`)
 * naming `target`; any other error (a constraint, a syntax error) is returned unchanged.
 */
export function toStoreError(error: unknown, target?: string): unknown {
  if (error instanceof StoreUnavailableError || !isConnectionFailure(error)) return error;
  return new StoreUnavailableError(
    { store: 'postgres', target, reason: reasonOf(error) },
    { cause: error },
  );
}

/** `host:port/database` of a connection URL, for messages: never the user or password. */
export function describePostgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return 'an unparsable DATABASE_URL';
  }
}
