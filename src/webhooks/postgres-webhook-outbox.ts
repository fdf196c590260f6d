import { type PostgresPool, queryPostgres } from '../core/index.ts';
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
 * The webhook outbox in PostgreSQL (`webhook_deliveries`, from `webhookMigrations`), shared by
 * every instance on the database: a claim locks its rows with `FOR UPDATE SKIP LOCKED`, so
 * instances claiming at once take different deliveries and each attempt is made once.
 * @example
 * const outbox = new PostgresWebhookOutbox(pool);
 */
export class PostgresWebhookOutbox implements WebhookOutbox {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async enqueue(input: WebhookEnqueueInput, now = Date.now()): Promise<WebhookDelivery> {
    const delivery = newDelivery(input, now);
    await queryPostgres(
      this.#pool,
      `INSERT INTO webhook_deliveries (${insertColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      insertValues(delivery),
    );
    return delivery;
  }

  async claimDue(
    now: number,
    limit: number,
    instanceId: string,
    leaseMs: number,
  ): Promise<WebhookDelivery[]> {
    // A row another claim holds is skipped; one it leased meanwhile fails the re-checked lease.
    const { rows } = await queryPostgres<DeliveryRow>(
      this.#pool,
      `UPDATE webhook_deliveries AS d SET lease_owner = $3, lease_until = $1::bigint + $4::bigint
       FROM (SELECT id FROM webhook_deliveries
         WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
         ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) AS due
       WHERE d.id = due.id
       RETURNING d.id, d.run_id, d.event, d.url, d.state, d.attempts, d.last_status, d.last_error,
         d.next_attempt_at, d.delivered_at, d.created_at, d.headers, d.body`,
      [now, limit, instanceId, leaseMs],
    );
    return rows.map(claimedOf).sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
  }

  async record(id: string, outcome: WebhookAttemptOutcome): Promise<void> {
    const columns = outcomeColumns(outcome);
    await queryPostgres(
      this.#pool,
      `UPDATE webhook_deliveries SET attempts = attempts + 1, state = $2, last_status = $3,
         last_error = $4, next_attempt_at = $5, delivered_at = $6, lease_owner = NULL, lease_until = NULL
       WHERE id = $1`,
      [
        id,
        columns.state,
        columns.lastStatus,
        columns.lastError,
        columns.nextAttemptAt,
        columns.deliveredAt,
      ],
    );
  }

  async ofRun(runId: string): Promise<WebhookDeliveryInfo[]> {
    const { rows } = await queryPostgres<DeliveryRow>(
      this.#pool,
      `SELECT ${infoColumns} FROM webhook_deliveries WHERE run_id = $1 ORDER BY created_at, id`,
      [runId],
    );
    return rows.map(deliveryOf);
  }

  async nextDue(): Promise<number | undefined> {
    const { rows } = await queryPostgres<{ due: string | null }>(
      this.#pool,
      `SELECT min(greatest(next_attempt_at, coalesce(lease_until, 0))) AS due
       FROM webhook_deliveries WHERE state = 'pending'`,
    );
    const due = rows[0]?.due;
    return due === null || due === undefined ? undefined : Number(due);
  }

  async deleteRun(runId: string): Promise<void> {
    await queryPostgres(this.#pool, 'DELETE FROM webhook_deliveries WHERE run_id = $1', [runId]);
  }
}
