import { PostgresVersionError } from './errors/postgres-version-error.ts';

/** The oldest PostgreSQL major version Yeoul runs on (statement triggers with transition tables, `EXECUTE FUNCTION`, `gen_random_uuid()`). */
export const minimumPostgresVersion = 13;

/** Anything that runs a query: a pool or a checked-out client. */
export interface PostgresQueryable {
  query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * Reads the server's version; throws `PostgresVersionError` (`store_version_unsupported`)
 * when it is older than `minimum`. Resolves to the major version and the version text.
 */
export async function checkPostgresVersion(
  database: PostgresQueryable,
  minimum = minimumPostgresVersion,
): Promise<{ major: number; version: string }> {
  const { rows } = await database.query(
    "SELECT current_setting('server_version_num') AS number, current_setting('server_version') AS version",
  );
  const number = Number(rows[0]?.number);
  const version = String(rows[0]?.version ?? 'unknown').split(' ')[0] ?? 'unknown';
  const major = Math.floor(number / 10_000);
  if (!Number.isFinite(number) || major < minimum) {
    throw new PostgresVersionError({ version, minimum });
  }
  return { major, version };
}
