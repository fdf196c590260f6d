import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { createId, SqliteWriteBatch, toSqliteStoreError } from '../core/index.ts';
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

// The revision row counts changes of definitions (an insert, a delete, or an update that
// sets updated_at; firings do not), so runners notice changes made by other processes with
// one cheap read. Triggers keep each write one statement, as the group commit needs.
const schema = `
CREATE TABLE IF NOT EXISTS schedules (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  name TEXT,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  message TEXT NOT NULL,
  graph TEXT NOT NULL,
  session_id TEXT,
  options TEXT NOT NULL,
  on_busy TEXT NOT NULL,
  webhook TEXT,
  enabled INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  next_run_at INTEGER,
  last_run_at INTEGER,
  last_run_id TEXT
);
CREATE INDEX IF NOT EXISTS schedules_owner ON schedules (owner, created_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS schedule_slots (
  schedule_id TEXT NOT NULL,
  scheduled_for INTEGER NOT NULL,
  run_id TEXT NOT NULL,
  claimed_at INTEGER NOT NULL,
  PRIMARY KEY (schedule_id, scheduled_for)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS schedule_revision (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
INSERT OR IGNORE INTO schedule_revision (id, value) VALUES (1, 0);
CREATE TRIGGER IF NOT EXISTS schedules_inserted AFTER INSERT ON schedules
BEGIN UPDATE schedule_revision SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS schedules_changed AFTER UPDATE OF updated_at ON schedules
BEGIN UPDATE schedule_revision SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS schedules_deleted AFTER DELETE ON schedules
BEGIN
  UPDATE schedule_revision SET value = value + 1;
  DELETE FROM schedule_slots WHERE schedule_id = old.id;
END;
`;

/**
 * Schedules in the embedded SQLite store: the data folder's database, beside the sessions and
 * the checkpoints, shared by a `yeoul serve` and the CLI on the same folder. Writes join the
 * connection's group commit; a slot's claim is one insert that only one connection makes.
 * @example
 * const schedules = new SqliteScheduleStore(checkpointer.database);
 */
export class SqliteScheduleStore implements ScheduleStore {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #now: () => number;
  #get: StatementSync;
  #list: StatementSync;
  #enabled: StatementSync;
  #insert: StatementSync;
  #delete: StatementSync;
  #revision: StatementSync;
  #claim: StatementSync;
  #record: StatementSync;
  #prune: StatementSync;

  constructor(database: DatabaseSync, options: { now?: () => number } = {}) {
    database.exec(schema);
    // Added after the table shipped: a database made before gets it here.
    const columns = database.prepare('PRAGMA table_info(schedules)').all() as Array<{
      name: string;
    }>;
    if (!columns.some((column) => column.name === 'metadata')) {
      database.exec("ALTER TABLE schedules ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}'");
    }
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#now = options.now ?? Date.now;
    this.#get = database.prepare('SELECT * FROM schedules WHERE id = ? AND owner = ?');
    this.#list = database.prepare(
      'SELECT * FROM schedules WHERE owner = ? ORDER BY created_at DESC, id DESC',
    );
    this.#enabled = database.prepare('SELECT * FROM schedules WHERE enabled = 1');
    this.#insert = database.prepare(
      `INSERT INTO schedules (id, owner, name, cron, timezone, message, graph, session_id, options,
         on_busy, webhook, enabled, created_at, updated_at, next_run_at, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    );
    this.#delete = database.prepare('DELETE FROM schedules WHERE id = ? AND owner = ?');
    this.#revision = database.prepare('SELECT value FROM schedule_revision WHERE id = 1');
    this.#claim = database.prepare(
      `INSERT OR IGNORE INTO schedule_slots (schedule_id, scheduled_for, run_id, claimed_at)
       SELECT id, ?, ?, ? FROM schedules WHERE id = ? AND enabled = 1`,
    );
    this.#record = database.prepare(
      `UPDATE schedules SET last_run_at = ?, last_run_id = ?,
         next_run_at = CASE WHEN ? AND updated_at = ? THEN ? ELSE next_run_at END
       WHERE id = ?`,
    );
    this.#prune = database.prepare('DELETE FROM schedule_slots WHERE claimed_at < ?');
  }

  async create(schedule: NewSchedule): Promise<Schedule> {
    const now = this.#now();
    const row = await this.#batch.run(
      () =>
        this.#insert.get(
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
          columnValue('webhook', schedule.webhook) as string | null,
          schedule.enabled ? 1 : 0,
          now,
          now,
          schedule.nextRunAt,
          columnValue('metadata', schedule.metadata) as string,
        ) as ScheduleRow,
    );
    return scheduleOf(row);
  }

  async get(id: string, owner: string): Promise<Schedule | undefined> {
    const row = this.#read(() => this.#get.get(id, owner)) as ScheduleRow | undefined;
    return row === undefined ? undefined : scheduleOf(row);
  }

  async list(owner: string): Promise<Schedule[]> {
    return (this.#read(() => this.#list.all(owner)) as ScheduleRow[]).map(scheduleOf);
  }

  async update(id: string, owner: string, changes: ScheduleUpdate): Promise<Schedule | undefined> {
    const sets = ['updated_at = ?'];
    const values: unknown[] = [this.#now()];
    for (const [field, column] of updatableColumns) {
      if (!(field in changes) || changes[field] === undefined) continue;
      sets.push(`${column} = ?`);
      const value = columnValue(field, changes[field]);
      values.push(typeof value === 'boolean' ? Number(value) : value);
    }
    const statement = this.#database.prepare(
      `UPDATE schedules SET ${sets.join(', ')} WHERE id = ? AND owner = ? RETURNING *`,
    );
    const row = await this.#batch.run(
      () => statement.get(...(values as string[]), id, owner) as ScheduleRow | undefined,
    );
    return row === undefined ? undefined : scheduleOf(row);
  }

  async delete(id: string, owner: string): Promise<boolean> {
    const result = await this.#batch.run(() => this.#delete.run(id, owner));
    return result.changes > 0;
  }

  async enabled(): Promise<Schedule[]> {
    return (this.#read(() => this.#enabled.all()) as ScheduleRow[]).map(scheduleOf);
  }

  async revision(): Promise<number> {
    return Number((this.#read(() => this.#revision.get()) as { value: number }).value);
  }

  async claimSlot(scheduleId: string, scheduledFor: number, runId: string): Promise<boolean> {
    const now = this.#now();
    // Another process on the file (a second `yeoul serve`, the CLI) may commit between this
    // statement's read and its write: SQLite then answers busy at once, without waiting.
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await this.#batch.run(() =>
          this.#claim.run(scheduledFor, runId, now, scheduleId),
        );
        return result.changes === 1;
      } catch (error) {
        if (attempt >= 20 || !isBusy(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, attempt * 5));
      }
    }
  }

  async recordFiring(
    schedule: Pick<Schedule, 'id' | 'updatedAt'>,
    firing: ScheduleFiring,
  ): Promise<void> {
    const moves = firing.nextRunAt !== undefined;
    await this.#batch.run(() =>
      this.#record.run(
        firing.firedAt,
        firing.runId,
        moves ? 1 : 0,
        schedule.updatedAt,
        firing.nextRunAt ?? null,
        schedule.id,
      ),
    );
  }

  async pruneSlots(before: number): Promise<number> {
    const result = await this.#batch.run(() => this.#prune.run(before));
    return Number(result.changes);
  }

  #read<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw toSqliteStoreError(error, this.#database.location());
    }
  }
}

/** Whether SQLite answered busy (the database is locked by another connection's write). */
function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return (
    (typeof code === 'number' && (code & 0xff) === 5) || /database is locked/i.test(String(error))
  );
}
