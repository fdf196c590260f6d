import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import { insertDeliveryInPostgres, type WebhookDelivery } from '../../webhooks/index.ts';
import {
  listedRun,
  type RunChanges,
  type RunQuery,
  type RunRecord,
  type RunStatus,
  type RunStore,
} from './run-store.ts';

/**
 * The runs in PostgreSQL (`server_runs`, from `runMigrations`), shared by every instance on
 * the database: a run started through one instance is read, listed and changed through any
 * other. Same rules as the SQLite runs.
 * @example
 * const runs = new PostgresRunStore(pool);
 */
export class PostgresRunStore implements RunStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async create(run: RunRecord, withDelivery?: WebhookDelivery): Promise<boolean> {
    const { rowCount } = await this.#writeWith(
      withDelivery,
      `INSERT INTO server_runs
         (run_id, session_id, owner, status, source, schedule_id, scheduled_for, created_at, record)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb) ON CONFLICT DO NOTHING`,
      [
        run.runId,
        run.sessionId,
        run.owner,
        run.status,
        run.source,
        run.scheduleId ?? null,
        run.scheduledFor ?? null,
        Date.parse(run.createdAt),
        JSON.stringify(run),
      ],
    );
    return rowCount === 1;
  }

  async update(
    runId: string,
    changes: RunChanges,
    onlyFrom?: readonly RunStatus[],
    onlyInstance?: string,
    withDelivery?: WebhookDelivery,
  ): Promise<boolean> {
    const removed = Object.keys(changes).filter(
      (key) => changes[key as keyof RunChanges] === undefined,
    );
    // One statement: the check and the change are one step, whichever instance writes.
    const { rowCount } = await this.#writeWith(
      withDelivery,
      `UPDATE server_runs SET record = (record - $3::text[]) || $2::jsonb,
         status = coalesce($2::jsonb->>'status', status)
       WHERE run_id = $1 AND ($4::text[] IS NULL OR status = ANY($4::text[]))
         AND ($5::text IS NULL OR record->>'instanceId' = $5)`,
      [
        runId,
        JSON.stringify(changes),
        removed,
        onlyFrom === undefined ? null : [...onlyFrom],
        onlyInstance ?? null,
      ],
    );
    return rowCount === 1;
  }

  /**
   * Runs `sql` (an INSERT or UPDATE of one run) and, for the row it wrote, stores `delivery`
   * in the same statement (a common table expression): both are kept, or neither. The row
   * count is the run's.
   */
  #writeWith(
    delivery: WebhookDelivery | undefined,
    sql: string,
    values: unknown[],
  ): Promise<{ rowCount: number }> {
    if (delivery === undefined) return queryPostgres(this.#pool, sql, values);
    const insert = insertDeliveryInPostgres(delivery, 'written', values.length + 1);
    return queryPostgres(this.#pool, `WITH written AS (${sql} RETURNING 1) ${insert.sql}`, [
      ...values,
      ...insert.values,
    ]);
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    const { rows } = await queryPostgres<{ record: RunRecord }>(
      this.#pool,
      'SELECT record FROM server_runs WHERE run_id = $1',
      [runId],
    );
    return rows[0]?.record;
  }

  async list(query: RunQuery): Promise<RunRecord[]> {
    const { rows } = await queryPostgres<{ record: RunRecord }>(
      this.#pool,
      `SELECT record FROM server_runs
       WHERE owner = $1 AND ($2::text IS NULL OR session_id = $2)
         AND ($3::text IS NULL OR schedule_id = $3)
         AND ($4::text[] IS NULL OR status = ANY($4::text[]))
         AND ($5::text[] IS NULL OR source = ANY($5::text[]))
       ORDER BY created_at DESC, id DESC LIMIT $6`,
      [
        query.owner,
        query.sessionId ?? null,
        query.scheduleId ?? null,
        query.statuses === undefined ? null : [...query.statuses],
        query.sources === undefined ? null : [...query.sources],
        query.limit ?? 50,
      ],
    );
    return rows.map((row) => listedRun(row.record, query.withResults));
  }

  async inStatus(statuses: readonly RunStatus[]): Promise<RunRecord[]> {
    const { rows } = await queryPostgres<{ record: RunRecord }>(
      this.#pool,
      'SELECT record FROM server_runs WHERE status = ANY($1::text[]) ORDER BY created_at, id',
      [[...statuses]],
    );
    return rows.map((row) => row.record);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await queryPostgres(this.#pool, 'DELETE FROM server_runs WHERE session_id = $1', [sessionId]);
  }
}
