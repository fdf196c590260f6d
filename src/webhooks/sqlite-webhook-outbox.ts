import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch, toSqliteStoreError } from '../core/index.ts';
import {
  claimedOf,
  type DeliveryRow,
  deliveryOf,
  infoColumns,
  insertColumns,
  insertValues,
  newDelivery,
  outcomeColumns,
  type WebhookAttemptOutcome,
  type WebhookDelivery,
  type WebhookDeliveryInfo,
  type WebhookEnqueueInput,
  type WebhookOutbox,
} from './webhook-outbox.ts';

/**
 * The outbox's table in a SQLite database (created if absent). Times are epoch milliseconds;
 * headers a JSON object; body the exact text every attempt sends.
 */
export const sqliteOutboxSchema = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  headers TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  last_status INTEGER,
  last_error TEXT,
  next_attempt_at INTEGER,
  delivered_at INTEGER,
  lease_owner TEXT,
  lease_until INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_run ON webhook_deliveries (run_id, created_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE state = 'pending';
`;

/**
 * The webhook outbox in the embedded SQLite store: the data folder's database, beside the
 * sessions and checkpoints, shared by a `yeoul serve` and the command line on the same folder.
 * A claim is one statement, so two processes on the file never take the same delivery.
 * @example
 * const outbox = new SqliteWebhookOutbox(checkpointer.database);
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #insert: StatementSync;
  #claim: StatementSync;
  #record: StatementSync;
  #ofRun: StatementSync;
  #nextDue: StatementSync;
  #deleteRun: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(sqliteOutboxSchema);
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#insert = database.prepare(
      `INSERT INTO webhook_deliveries (${insertColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#claim = database.prepare(
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE id IN (SELECT id FROM webhook_deliveries
         WHERE state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
         ORDER BY next_attempt_at, id LIMIT ?)
       RETURNING ${infoColumns}, headers, body`,
    );
    this.#record = database.prepare(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?, last_status = ?,
         last_error = ?, next_attempt_at = ?, delivered_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE id = ?`,
    );
    this.#ofRun = database.prepare(
      `SELECT ${infoColumns} FROM webhook_deliveries WHERE run_id = ? ORDER BY created_at, id`,
    );
    this.#nextDue = database.prepare(
      `SELECT min(max(next_attempt_at, coalesce(lease_until, 0))) AS due FROM webhook_deliveries
       WHERE state = 'pending'`,
    );
    this.#deleteRun = database.prepare('DELETE FROM webhook_deliveries WHERE run_id = ?');
  }

  async enqueue(input: WebhookEnqueueInput, now = Date.now()): Promise<WebhookDelivery> {
    const delivery = newDelivery(input, now);
    await this.#batch.run(() => this.#insert.run(...insertValues(delivery), now));
    return delivery;
  }

  async claimDue(
    now: number,
    limit: number,
    instanceId: string,
    leaseMs: number,
  ): Promise<WebhookDelivery[]> {
    const rows = await this.#batch.run(
      () => this.#claim.all(instanceId, now + leaseMs, now, now, limit) as unknown as DeliveryRow[],
    );
    return rows.map(claimedOf).sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
  }

  async record(id: string, outcome: WebhookAttemptOutcome): Promise<void> {
    const columns = outcomeColumns(outcome);
    await this.#batch.run(() =>
      this.#record.run(
        columns.state,
        columns.lastStatus,
        columns.lastError,
        columns.nextAttemptAt,
        columns.deliveredAt,
        id,
      ),
    );
  }

  async ofRun(runId: string): Promise<WebhookDeliveryInfo[]> {
    return this.#read(() => (this.#ofRun.all(runId) as unknown as DeliveryRow[]).map(deliveryOf));
  }

  async nextDue(): Promise<number | undefined> {
    const row = this.#read(() => this.#nextDue.get() as { due: number | null } | undefined);
    return row?.due ?? undefined;
  }

  async deleteRun(runId: string): Promise<void> {
    await this.#batch.run(() => this.#deleteRun.run(runId));
  }

  #read<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw toSqliteStoreError(error, this.#database.location());
    }
  }
}
