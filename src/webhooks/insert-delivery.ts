import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { sqliteOutboxSchema } from './sqlite-webhook-outbox.ts';
import { insertColumns, insertValues, type WebhookDelivery } from './webhook-outbox.ts';

/** The insert of each SQLite connection (its table made on first use). */
const sqliteInserts = new WeakMap<DatabaseSync, StatementSync>();

/**
 * Stores a new delivery on a SQLite connection, inside whatever write the caller is making
 * (a run store's end of a run, in the same transaction): the row and the run's end are kept
 * or lost together.
 * @example
 * database.exec('SAVEPOINT run_end'); update.run(…); insertDeliveryInSqlite(database, delivery);
 */
export function insertDeliveryInSqlite(database: DatabaseSync, delivery: WebhookDelivery): void {
  let insert = sqliteInserts.get(database);
  if (insert === undefined) {
    database.exec(sqliteOutboxSchema);
    insert = database.prepare(
      `INSERT INTO webhook_deliveries (${insertColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    sqliteInserts.set(database, insert);
  }
  const values = insertValues(delivery);
  insert.run(...values, values[6]);
}

/**
 * The PostgreSQL statement part that stores a new delivery for each row of `source` (a
 * common table expression of the same statement: a run's end, made by an UPDATE … RETURNING),
 * so the run's end and its delivery are one statement. Its parameters start at `$from`.
 * @example
 * const insert = insertDeliveryInPostgres(delivery, 'ended', 6);
 * await pool.query(`WITH ended AS (UPDATE … RETURNING 1) ${insert.sql}`, [...values, ...insert.values]);
 */
export function insertDeliveryInPostgres(
  delivery: WebhookDelivery,
  source: string,
  from: number,
): { sql: string; values: unknown[] } {
  const at = (offset: number, type: string) => `$${from + offset}::${type}`;
  const columns = ['text', 'text', 'text', 'text', 'text', 'text', 'bigint'].map((type, offset) =>
    at(offset, type),
  );
  return {
    sql: `INSERT INTO webhook_deliveries (${insertColumns})
      SELECT ${columns.join(', ')}, ${at(6, 'bigint')} FROM ${source}`,
    values: insertValues(delivery),
  };
}
