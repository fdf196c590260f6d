import { constants, DatabaseSync } from 'node:sqlite';

/** The largest string or blob a query may build (SQLite's own default is 1 GB). */
export const maxValueBytes = 16 * 1024 * 1024;

/**
 * Opens a SQLite file read-only, with extension loading off, defensive mode on and
 * `query_only` set, so nothing can write it even if a statement got past the other checks.
 * No value may grow past `maxValueBytes`, so a query such as a group_concat() over a
 * runaway recursive CTE fails instead of filling memory (sorts spill to temporary files).
 */
export function openReadOnlyDatabase(path: string): DatabaseSync {
  const database = new DatabaseSync(path, {
    readOnly: true,
    allowExtension: false,
    defensive: true,
  });
  database.exec('PRAGMA query_only = 1');
  database.limits.length = maxValueBytes;
  return database;
}

/**
 * False on a Node whose node:sqlite lacks the authorizer and limits the sandbox relies on
 * (Node 22): `sql_query` is then not offered at all rather than offered with less safety.
 */
export function readOnlySandboxAvailable(): boolean {
  if (sandboxAvailable === undefined) {
    const probe = new DatabaseSync(':memory:');
    sandboxAvailable =
      typeof probe.setAuthorizer === 'function' && typeof probe.limits === 'object';
    probe.close();
  }
  return sandboxAvailable;
}

let sandboxAvailable: boolean | undefined;

/** The only actions a query may take: read tables and call functions, recursion included. */
const permitted = new Set<number>([
  constants.SQLITE_SELECT,
  constants.SQLITE_READ,
  constants.SQLITE_FUNCTION,
  constants.SQLITE_RECURSIVE,
]);

/** Functions refused although calling functions is permitted. */
const refusedFunctions = new Set(['load_extension']);

const actionNames = new Map<number, string>(
  Object.entries(constants)
    .filter(([key]) => key.startsWith('SQLITE_') && !key.startsWith('SQLITE_CHANGESET'))
    .map(([key, value]) => [value, key.slice('SQLITE_'.length).replaceAll('_', ' ')]),
);

/**
 * Installs an authorizer that lets SQLite compile only reading statements: every other
 * action (INSERT, PRAGMA, ATTACH, a transaction, load_extension() …) is denied while the
 * statement is prepared. Returns a function that names the last denied action.
 */
export function permitOnlyReading(database: DatabaseSync): () => string | undefined {
  let denied: string | undefined;
  database.setAuthorizer((action, first, second) => {
    if (action === constants.SQLITE_FUNCTION && refusedFunctions.has(String(second))) {
      denied = `the function ${second}()`;
      return constants.SQLITE_DENY;
    }
    if (permitted.has(action)) return constants.SQLITE_OK;
    const name = actionNames.get(action) ?? `action ${action}`;
    denied = action === constants.SQLITE_PRAGMA && first !== null ? `PRAGMA ${first}` : name;
    return constants.SQLITE_DENY;
  });
  return () => denied;
}
