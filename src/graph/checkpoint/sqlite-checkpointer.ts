import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SqliteWriteBatch } from '../../core/index.ts';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import { defaultLeaseMs, hostIdentity, newInstanceId, processExists } from './host-identity.ts';
import type {
  CheckpointEntry,
  Checkpointer,
  EntryKind,
  EntryPayload,
  RunStatus,
  ThreadInfo,
  ThreadLog,
  ThreadSnapshot,
} from './types.ts';

/** How a SQLite checkpointer opens its database. */
export interface SqliteCheckpointerOptions {
  /** A database file (created with its folder when missing), or `:memory:`. */
  path?: string;
  /** An already open database to share; the checkpointer then does not close it. */
  database?: DatabaseSync;
  /**
   * `process` (default): a commit survives the process being killed (WAL, synchronous=NORMAL).
   * `power`: a commit also survives power loss (synchronous=FULL), at a cost per step.
   */
  durability?: 'process' | 'power';
  /**
   * `shared` (default): other processes (the CLI, a second server) may open the file too.
   * `exclusive`: this process holds the file alone, saving the file-lock calls of every
   * commit (about a third of a step's cost); others get "database is locked".
   */
  locking?: 'shared' | 'exclusive';
  /**
   * How long an instance counts as alive after its last heartbeat (default 30 s); it
   * beats every third of that while open.
   */
  leaseMs?: number;
}

/** Checkpoint the WAL into the database every ~40 MB instead of SQLite's default 4 MB. */
const walAutocheckpointPages = 10_000;

const schemaSql = `
CREATE TABLE IF NOT EXISTS graph_entries (
  thread_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  run_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  node TEXT,
  step INTEGER NOT NULL,
  update_json TEXT,
  next TEXT,
  status TEXT NOT NULL,
  error_json TEXT,
  created_at INTEGER NOT NULL,
  owner TEXT,
  payload_json TEXT,
  PRIMARY KEY (thread_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS graph_instances (
  instance_id TEXT PRIMARY KEY,
  heartbeat_at INTEGER NOT NULL,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS graph_bases (
  thread_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  values_json TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
`;

interface EntryRow {
  thread_id: string;
  seq: number;
  run_id: string;
  kind: string;
  node: string | null;
  step: number;
  update_json: string | null;
  next: string | null;
  status: string;
  error_json: string | null;
  created_at: number;
  owner: string | null;
  payload_json: string | null;
}

const primaryKeyViolation = 1555;

/**
 * Threads in a SQLite database through `node:sqlite`, one row per committed step.
 * An append resolves only after its transaction commits (steps of concurrent runs share
 * one, see SqliteWriteBatch), so a killed process leaves every thread at its last
 * committed step.
 */
export class SqliteCheckpointer implements Checkpointer {
  readonly database: DatabaseSync;
  readonly instanceId = newInstanceId();
  #leaseMs: number;
  #heartbeat: NodeJS.Timeout;
  #beat: StatementSync;
  #heartbeatOf: StatementSync;
  #forgetInstance: StatementSync;
  #ownsDatabase: boolean;
  #batch: SqliteWriteBatch;
  #insert: StatementSync;
  #selectEntries: StatementSync;
  #selectBase: StatementSync;
  #lastSeq: StatementSync;
  #insertBase: StatementSync;
  #deleteUpTo: StatementSync;
  #deleteEntries: StatementSync;
  #deleteBase: StatementSync;

  constructor(options: SqliteCheckpointerOptions = {}) {
    if (options.database) {
      this.database = options.database;
      this.#ownsDatabase = false;
    } else {
      const path = options.path ?? ':memory:';
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.database = new DatabaseSync(path);
      this.#ownsDatabase = true;
    }
    const synchronous = options.durability === 'power' ? 'FULL' : 'NORMAL';
    const locking = options.locking === 'exclusive' ? 'EXCLUSIVE' : 'NORMAL';
    this.database.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous}; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = ${walAutocheckpointPages}; PRAGMA locking_mode = ${locking};`,
    );
    this.database.exec(schemaSql);
    addMissingColumns(this.database);
    this.#batch = SqliteWriteBatch.of(this.database);
    // The insert only happens when seq is the thread's next number: a writer holding a
    // stale view of the thread gets a conflict instead of leaving a gap.
    // Positional rather than named parameters: node:sqlite binds an object of names at about
    // twice the cost of a list. Plain `?` (seq and thread id bound again at the end), not
    // `?1`: Node 22's node:sqlite cannot bind a list to numbered parameters.
    this.#insert = this.database.prepare(`
      INSERT INTO graph_entries
        (thread_id, seq, run_id, kind, node, step, update_json, next, status, error_json, created_at, owner, payload_json)
      SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
      WHERE ? = 1 + coalesce(
        (SELECT max(seq) FROM graph_entries WHERE thread_id = ?),
        (SELECT seq FROM graph_bases WHERE thread_id = ?),
        0)`);
    this.#selectEntries = this.database.prepare(
      'SELECT * FROM graph_entries WHERE thread_id = ? AND seq > ? ORDER BY seq',
    );
    this.#selectBase = this.database.prepare(
      'SELECT seq, values_json, created_at FROM graph_bases WHERE thread_id = ? AND seq > ?',
    );
    this.#lastSeq = this.database.prepare(
      'SELECT max(seq) AS seq FROM graph_entries WHERE thread_id = ?',
    );
    this.#insertBase = this.database.prepare(
      'INSERT OR REPLACE INTO graph_bases (thread_id, seq, values_json, created_at) VALUES (?, ?, ?, ?)',
    );
    this.#deleteUpTo = this.database.prepare(
      'DELETE FROM graph_entries WHERE thread_id = ? AND seq <= ?',
    );
    this.#deleteEntries = this.database.prepare('DELETE FROM graph_entries WHERE thread_id = ?');
    this.#deleteBase = this.database.prepare('DELETE FROM graph_bases WHERE thread_id = ?');
    this.#beat = this.database.prepare(
      'INSERT OR REPLACE INTO graph_instances (instance_id, heartbeat_at, host, pid) VALUES (?, ?, ?, ?)',
    );
    this.#heartbeatOf = this.database.prepare(
      'SELECT heartbeat_at, host, pid FROM graph_instances WHERE instance_id = ?',
    );
    this.#forgetInstance = this.database.prepare(
      'DELETE FROM graph_instances WHERE instance_id = ? OR heartbeat_at < ?',
    );
    this.#leaseMs = options.leaseMs ?? defaultLeaseMs;
    const beat = () => this.#beat.run(this.instanceId, Date.now(), hostIdentity(), process.pid);
    beat();
    // A heartbeat is one small write every ten seconds; the timer never keeps the process alive.
    this.#heartbeat = setInterval(() => {
      this.#batch.run(beat).catch(() => {});
    }, this.#leaseMs / 3);
    this.#heartbeat.unref();
  }

  async isAlive(instanceId: string): Promise<boolean> {
    if (instanceId === this.instanceId) return this.database.isOpen;
    const row = this.#heartbeatOf.get(instanceId) as
      | { heartbeat_at: number; host: string; pid: number }
      | undefined;
    if (row === undefined || row.heartbeat_at <= Date.now() - this.#leaseMs) return false;
    // On this machine a killed process is known dead at once, without waiting for its lease.
    return row.host !== hostIdentity() || processExists(row.pid);
  }

  async append(entry: CheckpointEntry): Promise<void> {
    // Steps of concurrent runs share one commit; this resolves once the step is stored.
    let changes: number | bigint;
    try {
      changes = await this.#batch.run(() => this.#insertEntry(entry));
    } catch (error) {
      if ((error as { errcode?: number }).errcode === primaryKeyViolation) {
        throw new CheckpointConflictError({
          threadId: entry.threadId,
          seq: entry.seq,
          cause: error,
        });
      }
      throw error;
    }
    if (changes === 0)
      throw new CheckpointConflictError({ threadId: entry.threadId, seq: entry.seq });
  }

  #insertEntry(entry: CheckpointEntry): number | bigint {
    return this.#insert.run(
      entry.threadId,
      entry.seq,
      entry.runId,
      entry.kind,
      entry.node,
      entry.step,
      entry.update === null ? null : JSON.stringify(entry.update),
      entry.next,
      entry.status,
      entry.error === null ? null : JSON.stringify(entry.error),
      entry.createdAt,
      entry.owner,
      entry.payload === null ? null : JSON.stringify(entry.payload),
      entry.seq,
      entry.threadId,
      entry.threadId,
    ).changes;
  }

  async read(threadId: string, afterSeq = 0): Promise<ThreadLog> {
    const baseRow = this.#selectBase.get(threadId, afterSeq) as
      | { seq: number; values_json: string; created_at: number }
      | undefined;
    const base: ThreadSnapshot | null = baseRow
      ? {
          seq: baseRow.seq,
          values: JSON.parse(baseRow.values_json) as Record<string, unknown>,
          createdAt: baseRow.created_at,
        }
      : null;
    const rows = this.#selectEntries.all(
      threadId,
      base ? base.seq : afterSeq,
    ) as unknown as EntryRow[];
    return { base, entries: rows.map(toEntry) };
  }

  async compact(threadId: string, snapshot: ThreadSnapshot): Promise<void> {
    this.#batch.flush();
    const current = this.#selectBase.get(threadId, 0) as { seq: number } | undefined;
    if (current !== undefined && snapshot.seq <= current.seq) return;
    const last = (this.#lastSeq.get(threadId) as { seq: number | null } | undefined)?.seq ?? 0;
    if (snapshot.seq >= last) {
      throw new RangeError(
        `Cannot compact thread "${threadId}" up to step ${snapshot.seq}: its last step is ${last} and must stay`,
      );
    }
    this.database.exec('BEGIN IMMEDIATE');
    try {
      this.#insertBase.run(
        threadId,
        snapshot.seq,
        JSON.stringify(snapshot.values),
        snapshot.createdAt,
      );
      this.#deleteUpTo.run(threadId, snapshot.seq);
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#batch.flush();
    this.database.exec('BEGIN IMMEDIATE');
    try {
      this.#deleteEntries.run(threadId);
      this.#deleteBase.run(threadId);
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }

  async listThreads(options: { status?: RunStatus } = {}): Promise<ThreadInfo[]> {
    const filter = options.status === undefined ? '' : 'WHERE e.status = ?';
    const rows = this.database
      .prepare(
        `SELECT e.thread_id, e.seq, e.status, e.run_id, e.created_at FROM graph_entries e
         JOIN (SELECT thread_id, max(seq) AS seq FROM graph_entries GROUP BY thread_id) m
           ON e.thread_id = m.thread_id AND e.seq = m.seq
         ${filter} ORDER BY e.created_at DESC, e.thread_id`,
      )
      .all(...(options.status === undefined ? [] : [options.status])) as unknown as EntryRow[];
    return rows.map((row) => ({
      threadId: row.thread_id,
      lastSeq: row.seq,
      status: row.status as RunStatus,
      runId: row.run_id,
      updatedAt: row.created_at,
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    if (!this.database.isOpen) return;
    this.#batch.flush();
    // Gone for good: this instance's runs are now seen as interrupted at once. Heartbeats of
    // instances dead for a day are swept along.
    this.#forgetInstance.run(this.instanceId, Date.now() - 86_400_000);
    if (this.#ownsDatabase) this.database.close();
  }
}

function toEntry(row: EntryRow): CheckpointEntry {
  return {
    threadId: row.thread_id,
    seq: row.seq,
    runId: row.run_id,
    kind: row.kind as EntryKind,
    node: row.node,
    step: row.step,
    update:
      row.update_json === null ? null : (JSON.parse(row.update_json) as Record<string, unknown>),
    next: row.next,
    status: row.status as RunStatus,
    error:
      row.error_json === null ? null : (JSON.parse(row.error_json) as CheckpointEntry['error']),
    createdAt: row.created_at,
    owner: row.owner,
    payload: row.payload_json === null ? null : (JSON.parse(row.payload_json) as EntryPayload),
  };
}

/** Files written before entries had an owner and a payload get the two columns. */
function addMissingColumns(database: DatabaseSync): void {
  const columns = new Set(
    (database.prepare('PRAGMA table_info(graph_entries)').all() as Array<{ name: string }>).map(
      (column) => column.name,
    ),
  );
  for (const column of ['owner', 'payload_json']) {
    if (!columns.has(column)) database.exec(`ALTER TABLE graph_entries ADD COLUMN ${column} TEXT`);
  }
}
