import { createId, type PostgresPool, queryPostgres } from '../core/index.ts';
import {
  columnValue,
  type NewSchedule,
  type Schedule,
  type ScheduleFiring,
  type ScheduleRow,
  type ScheduleStore,
  type ScheduleUpdate,
  scheduleOf,
  updatableColumns,
} from './schedule-store.ts';

/**
 * Schedules in PostgreSQL (`schedules`, from `scheduleMigrations`), shared by every instance
 * on the database and the CLI: a slot's claim is one insert on its primary key, so exactly
 * one instance fires it. Same rules as the SQLite schedules.
 * @example
 * const schedules = new PostgresScheduleStore(pool);
 */
export class PostgresScheduleStore implements ScheduleStore {
  #pool: PostgresPool;
  #now: () => number;

  constructor(pool: PostgresPool, options: { now?: () => number } = {}) {
    this.#pool = pool;
    this.#now = options.now ?? Date.now;
  }

  async create(schedule: NewSchedule): Promise<Schedule> {
    const now = this.#now();
    const { rows } = await queryPostgres<ScheduleRow>(
      this.#pool,
      `INSERT INTO schedules (id, owner, name, cron, timezone, message, graph, session_id, options,
         on_busy, webhook, enabled, created_at, updated_at, next_run_at, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $15) RETURNING *`,
      [
        createId(),
        schedule.owner,
        schedule.name,
        schedule.cron,
        schedule.timezone,
        schedule.message,
        schedule.graph,
        schedule.sessionId,
        JSON.stringify(schedule.options),
        schedule.onBusy,
        columnValue('webhook', schedule.webhook),
        schedule.enabled,
        now,
        schedule.nextRunAt,
        columnValue('metadata', schedule.metadata),
      ],
    );
    return scheduleOf(rows[0] as ScheduleRow);
  }

  async get(id: string, owner: string): Promise<Schedule | undefined> {
    const { rows } = await queryPostgres<ScheduleRow>(
      this.#pool,
      'SELECT * FROM schedules WHERE id = $1 AND owner = $2',
      [id, owner],
    );
    return rows[0] === undefined ? undefined : scheduleOf(rows[0]);
  }

  async list(owner: string): Promise<Schedule[]> {
    const { rows } = await queryPostgres<ScheduleRow>(
      this.#pool,
      'SELECT * FROM schedules WHERE owner = $1 ORDER BY created_at DESC, id DESC',
      [owner],
    );
    return rows.map(scheduleOf);
  }

  async update(id: string, owner: string, changes: ScheduleUpdate): Promise<Schedule | undefined> {
    const values: unknown[] = [id, owner, this.#now()];
    const sets = ['updated_at = $3'];
    for (const [field, column] of updatableColumns) {
      if (!(field in changes) || changes[field] === undefined) continue;
      values.push(columnValue(field, changes[field]));
      sets.push(`${column} = $${values.length}`);
    }
    const { rows } = await queryPostgres<ScheduleRow>(
      this.#pool,
      `UPDATE schedules SET ${sets.join(', ')} WHERE id = $1 AND owner = $2 RETURNING *`,
      values,
    );
    return rows[0] === undefined ? undefined : scheduleOf(rows[0]);
  }

  async delete(id: string, owner: string): Promise<boolean> {
    const { rowCount } = await queryPostgres(
      this.#pool,
      'DELETE FROM schedules WHERE id = $1 AND owner = $2',
      [id, owner],
    );
    return rowCount > 0;
  }

  async enabled(): Promise<Schedule[]> {
    const { rows } = await queryPostgres<ScheduleRow>(
      this.#pool,
      'SELECT * FROM schedules WHERE enabled',
    );
    return rows.map(scheduleOf);
  }

  async revision(): Promise<number> {
    const { rows } = await queryPostgres<{ value: string }>(this.#pool, {
      name: 'yeoul_schedule_revision',
      text: 'SELECT value FROM schedule_revision WHERE id = 1',
    });
    return Number(rows[0]?.value ?? 0);
  }

  async claimSlot(scheduleId: string, scheduledFor: number, runId: string): Promise<boolean> {
    const { rowCount } = await queryPostgres(
      this.#pool,
      `INSERT INTO schedule_slots (schedule_id, scheduled_for, run_id, claimed_at)
       SELECT id, $2::bigint, $3::text, $4::bigint FROM schedules WHERE id = $1 AND enabled
       ON CONFLICT (schedule_id, scheduled_for) DO NOTHING`,
      [scheduleId, scheduledFor, runId, this.#now()],
    );
    return rowCount === 1;
  }

  async recordFiring(
    schedule: Pick<Schedule, 'id' | 'updatedAt'>,
    firing: ScheduleFiring,
  ): Promise<void> {
    await queryPostgres(
      this.#pool,
      `UPDATE schedules SET last_run_at = $2, last_run_id = $3,
         next_run_at = CASE WHEN $4 AND updated_at = $5 THEN $6 ELSE next_run_at END
       WHERE id = $1`,
      [
        schedule.id,
        firing.firedAt,
        firing.runId,
        firing.nextRunAt !== undefined,
        schedule.updatedAt,
        firing.nextRunAt ?? null,
      ],
    );
  }

  async pruneSlots(before: number): Promise<number> {
    const { rowCount } = await queryPostgres(
      this.#pool,
      'DELETE FROM schedule_slots WHERE claimed_at < $1',
      [before],
    );
    return rowCount;
  }
}
