import { StoreUnavailableError } from './errors/store-unavailable-error.ts';

/** SQLite's primary result code for a write that found the disk (or the file's quota) full. */
const sqliteFull = 13;

/**
 * True when `error` says the disk is full: SQLite's `SQLITE_FULL` ("database or disk is
 * full"), or a file system write that got `ENOSPC`.
 */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === 'ENOSPC') return true;
  return (
    code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && (errcode & 0xff) === sqliteFull
  );
}

/**
 * Turns a full disk under the embedded store into a `StoreUnavailableError` (503
 * `store_unavailable`) naming the database file; any other error is returned unchanged.
 * @example
 * batchWrite().catch((error) => { throw toSqliteStoreError(error, database.location()); });
 */
export function toSqliteStoreError(error: unknown, target?: string | null): unknown {
  if (error instanceof StoreUnavailableError || !isDiskFull(error)) return error;
  const said = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(
    {
      store: 'sqlite',
      target: target ?? undefined,
      reason: `the disk holding it is full (${said}); free space there and it serves again`,
    },
    { cause: error },
  );
}
