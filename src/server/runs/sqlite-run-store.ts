import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch, toSqliteStoreError } from '../../core/index.ts';
import { insertDeliveryInSqlite, type WebhookDelivery } from '../../webhooks/index.ts';
import {
  listedRun,
  type RunChanges,
  type RunQuery,
  type RunRecord,
  type RunStatus,
  type RunStore,
} from './run-store.ts';

// The record is kept whole as JSON; the columns are what lists and claims look up by.
const schema = `
CREATE TABLE IF NOT EXISTS server_runs (
  run_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  owner TEXT NOT NULL,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  schedule_id TEXT,
  scheduled_for TEXT,
  created_at INTEGER NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS server_runs_owner ON server_runs (owner, created_at);
CREATE INDEX IF NOT EXISTS server_runs_session ON server_runs (session_id);
CREATE INDEX IF NOT EXISTS server_runs_status ON server_runs (status);
CREATE UNIQUE INDEX IF NOT EXISTS server_runs_slot ON server_runs (schedule_id, scheduled_for)
  WHERE schedule_id IS NOT NULL AND scheduled_for IS NOT NULL;
`;

/**
 * The runs in the embedded SQLite store: the data folder's database, beside the sessions and
 * the checkpoints, shared by a `yeoul serve` and the command line on the same folder. Writes
 * join the connection's group commit.
 * @example
 * const runs = new SqliteRunStore(checkpointer.database);
 */
export class SqliteRunStore implements RunStore {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #insert: StatementSync;
  #select: StatementSync;
  #write: StatementSync;
  #delete: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(schema);
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#insert = database.prepare(
      `INSERT OR IGNORE INTO server_runs
         (run_id, session_id, owner, status, source, schedule_id, scheduled_for, created_at, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#select = database.prepare('SELECT record FROM server_runs WHERE run_id = ?');
    // A merge patch (a null removes the field), applied where the status allows: one statement.
    this.#write = database.prepare(
      `UPDATE server_runs SET record = json_patch(record, ?), status = coalesce(?, status)
       WHERE run_id = ? AND (? IS NULL OR status IN (SELECT value FROM json_each(?)))
         AND (? IS NULL OR json_extract(record, '$.instanceId') = ?)`,
    );
    this.#delete = database.prepare('DELETE FROM server_runs WHERE session_id = ?');
  }

  async create(run: RunRecord, withDelivery?: WebhookDelivery): Promise<boolean> {
    const { changes } = await this.#writeWith(withDelivery, () =>
      this.#insert.run(
        run.runId,
        run.sessionId,
        run.owner,
        run.status,
        run.source,
        run.scheduleId ?? null,
        run.scheduledFor ?? null,
        Date.parse(run.createdAt),
        JSON.stringify(run),
      ),
    );
    return Number(changes) === 1;
  }

  async update(
    runId: string,
    changes: RunChanges,
    onlyFrom?: readonly RunStatus[],
    onlyInstance?: string,
    withDelivery?: WebhookDelivery,
  ): Promise<boolean> {
    const patch = JSON.stringify(changes, (_key, value) => (value === undefined ? null : value));
    const statuses = onlyFrom === undefined ? null : JSON.stringify(onlyFrom);
    const { changes: changed } = await this.#writeWith(withDelivery, () =>
      this.#write.run(
        patch,
        changes.status ?? null,
        runId,
        statuses,
        statuses,
        onlyInstance ?? null,
        onlyInstance ?? null,
      ),
    );
    return Number(changed) === 1;
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    const row = this.#read(() => this.#select.get(runId)) as { record: string } | undefined;
    return row === undefined ? undefined : runOf(row.record);
  }

  async list(query: RunQuery): Promise<RunRecord[]> {
    // Narrowed to a session or a schedule, the list is read through that index: left to
    // itself SQLite walks the owner's index (it is in `created_at` order), every run the owner
    // ever had, to find the session's few (`+owner` keeps the owner index out of the plan).
    const narrow = query.sessionId !== undefined || query.scheduleId !== undefined;
    const where = [narrow ? '+owner = ?' : 'owner = ?'];
    const values: Array<string | number> = [query.owner];
    if (query.sessionId !== undefined) {
      where.push('session_id = ?');
      values.push(query.sessionId);
    }
    if (query.scheduleId !== undefined) {
      where.push('schedule_id = ?');
      values.push(query.scheduleId);
    }
    for (const [column, list] of [
      ['status', query.statuses],
      ['source', query.sources],
    ] as const) {
      if (list === undefined) continue;
      where.push(`${column} IN (${list.map(() => '?').join(', ')})`);
      values.push(...list);
    }
    values.push(query.limit ?? 50);
    const rows = this.#read(() =>
      this.#database
        .prepare(
          `SELECT record FROM server_runs WHERE ${where.join(' AND ')}
           ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        )
        .all(...values),
    ) as Array<{ record: string }>;
    return rows.map((row) => listedRun(runOf(row.record), query.withResults));
  }

  async inStatus(statuses: readonly RunStatus[]): Promise<RunRecord[]> {
    const rows = this.#read(() =>
      this.#database
        .prepare(
          `SELECT record FROM server_runs WHERE status IN (${statuses.map(() => '?').join(', ')})
           ORDER BY created_at, rowid`,
        )
        .all(...statuses),
    ) as Array<{ record: string }>;
    return rows.map((row) => runOf(row.record));
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#batch.run(() => this.#delete.run(sessionId));
  }

  /**
   * Runs `write` in the next group commit and, when it changed a row, stores `delivery` in
   * the same transaction (a savepoint: all of it is kept, or none).
   */
  #writeWith(
    delivery: WebhookDelivery | undefined,
    write: () => { changes: number | bigint },
  ): Promise<{ changes: number | bigint }> {
    if (delivery === undefined) return this.#batch.run(write);
    const database = this.#database;
    return this.#batch.run(() => {
      database.exec('SAVEPOINT run_with_delivery');
      try {
        const outcome = write();
        if (Number(outcome.changes) === 1) insertDeliveryInSqlite(database, delivery);
        database.exec('RELEASE run_with_delivery');
        return outcome;
      } catch (error) {
        if (database.isTransaction) {
          database.exec('ROLLBACK TO run_with_delivery');
          database.exec('RELEASE run_with_delivery');
        }
        throw error;
      }
    });
  }

  #read<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw toSqliteStoreError(error, this.#database.location());
    }
  }
}

/** A stored record (a time a patch set to null is absent from it: null again here). */
function runOf(text: string): RunRecord {
  const run = JSON.parse(text) as RunRecord;
  run.startedAt ??= null;
  run.endedAt ??= null;
  return run;
}
