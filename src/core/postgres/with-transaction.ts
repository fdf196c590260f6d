import { isConnectionFailure, toStoreError } from './classify-postgres-error.ts';
import { type PostgresClient, type PostgresPool, poolTarget } from './create-postgres-pool.ts';

/**
 * Runs `work` in one transaction on a connection of `pool`: committed when it resolves,
 * rolled back when it throws. Connection failures come out as `StoreUnavailableError`, and a
 * connection that broke is discarded instead of returned to the pool.
 * @example
 * await withTransaction(pool, async (client) => { await client.query('…', [id]); });
 */
export async function withTransaction<T>(
  pool: PostgresPool,
  work: (client: PostgresClient) => Promise<T>,
): Promise<T> {
  let client: PostgresClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw toStoreError(error, poolTarget(pool));
  }
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    let broken = isConnectionFailure(error);
    if (!broken) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
    }
    client.release(broken ? true : undefined);
    throw toStoreError(error, poolTarget(pool));
  }
}

/**
 * Runs one parameterised statement on `pool`; connection failures become `StoreUnavailableError`.
 * `sql` may be a named statement (`{name, text}`), prepared once per connection: for hot
 * statements, whose parsing and planning would cost more than running them.
 * `values` may be a function, called once a connection is in hand: for values that must be
 * taken when the statement leaves (a time), not before a wait for a pooled connection.
 */
export async function queryPostgres<Row extends Record<string, unknown>>(
  pool: PostgresPool,
  sql: string | { name: string; text: string },
  values: unknown[] | (() => unknown[]) = [],
): Promise<{ rows: Row[]; rowCount: number }> {
  const statement = (given: unknown[]) =>
    typeof sql === 'string' ? { text: sql, values: given } : { ...sql, values: given };
  try {
    if (typeof values !== 'function') {
      const result = await pool.query<Row>(statement(values));
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    }
    const client = await pool.connect();
    try {
      const result = await client.query<Row>(statement(values()));
      client.release();
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      client.release(isConnectionFailure(error) ? true : undefined);
      throw error;
    }
  } catch (error) {
    throw toStoreError(error, poolTarget(pool));
  }
}
