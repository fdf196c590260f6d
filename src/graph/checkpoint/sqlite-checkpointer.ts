import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SqliteWriteBatch } from '../../core/index.ts';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import { defaultLeaseMs, hostIdentity, newInstanceId, processExists } from './host-identity.ts';
import { prepareSchema, prepareSchemaPageSize, seqSpan } from './sqlite-checkpoint-schema.ts';
import {
  type Anchor,
  anchorOf,
  decodeEntry,
  encodeEntry,
  inheritsFrom,
  type LogRow,
  statusCode,
  type ThreadRow,
} from './sqlite-entry-row.ts';
import {
  type CheckpointEntry,
  type Checkpointer,
  type ListThreadsOptions,
  prefixEnd,
  type ThreadInfo,
  type ThreadLog,
  type ThreadSnapshot,
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

/** Threads whose last anchor this instance remembers: those with a run going on, at most. */
const rememberedAnchors = 1_000;

const primaryKeyViolation = 1555;

/**
 * Threads in a SQLite database through `node:sqlite`, one small row per committed entry
 * (see sqlite-entry-row.ts for what a row holds). An append resolves only after its
 * transaction commits (steps of concurrent runs share one, see SqliteWriteBatch), so a
 * killed process leaves every thread at its last committed entry.
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
  #addThread: StatementSync;
  #insert: StatementSync;
  #selectThread: StatementSync;
  #selectRows: StatementSync;
  #selectAnchor: StatementSync;
  #lastKey: StatementSync;
  #setBase: StatementSync;
  #anchorRow: StatementSync;
  #deleteUpTo: StatementSync;
  #deleteRows: StatementSync;
  #deleteThread: StatementSync;
  #selectLastsFrom: StatementSync;
  #selectLastsBetween: StatementSync;
  /** The anchor of the last entry this instance appended, by thread, while its run goes on. */
  #anchors = new Map<string, { seq: number; anchor: Anchor }>();

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
    // The page size of a new file is set before WAL mode, which fixes it.
    prepareSchemaPageSize(this.database, this.#ownsDatabase);
    this.database.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous}; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = ${walAutocheckpointPages}; PRAGMA locking_mode = ${locking};`,
    );
    prepareSchema(this.database);
    this.#batch = SqliteWriteBatch.of(this.database);
    this.#addThread = this.database.prepare(
      'INSERT INTO graph_threads (thread_id) VALUES (?) ON CONFLICT (thread_id) DO NOTHING',
    );
    // The insert only happens when seq is the thread's next number: a writer holding a
    // stale view of the thread gets a conflict instead of leaving a gap.
    // Positional rather than named parameters: node:sqlite binds an object of names at about
    // twice the cost of a list. Plain `?`, not `?1`: Node 22's node:sqlite cannot bind a
    // list to numbered parameters.
    this.#insert = this.database.prepare(`
      INSERT INTO graph_log (key, status, data, run_id, owner, created_at)
      SELECT t.thread_no * ${seqSpan} + ?, ?, ?, ?, ?, ? FROM graph_threads t
      WHERE t.thread_id = ? AND ? = 1 + coalesce(
        (SELECT max(key) FROM graph_log
          WHERE key > t.thread_no * ${seqSpan} AND key < (t.thread_no + 1) * ${seqSpan})
          - t.thread_no * ${seqSpan},
        t.base_seq,
        0)`);
    this.#selectThread = this.database.prepare(
      'SELECT thread_no, base_seq, base_json, base_created_at FROM graph_threads WHERE thread_id = ?',
    );
    this.#selectRows = this.database.prepare(
      'SELECT key, status, data, run_id, owner, created_at FROM graph_log WHERE key > ? AND key < ? ORDER BY key',
    );
    this.#selectAnchor = this.database.prepare(
      'SELECT run_id, owner, created_at FROM graph_log WHERE key < ? AND key > ? AND run_id IS NOT NULL ORDER BY key DESC LIMIT 1',
    );
    this.#lastKey = this.database.prepare(
      'SELECT max(key) AS key FROM graph_log WHERE key > ? AND key < ?',
    );
    this.#setBase = this.database.prepare(
      'UPDATE graph_threads SET base_seq = ?, base_json = ?, base_created_at = ? WHERE thread_no = ?',
    );
    this.#anchorRow = this.database.prepare(
      'UPDATE graph_log SET run_id = ?, owner = ?, created_at = ? WHERE key = ?',
    );
    this.#deleteUpTo = this.database.prepare('DELETE FROM graph_log WHERE key > ? AND key <= ?');
    this.#deleteRows = this.database.prepare('DELETE FROM graph_log WHERE key > ? AND key < ?');
    this.#deleteThread = this.database.prepare('DELETE FROM graph_threads WHERE thread_no = ?');
    const selectLasts = (where: string) =>
      this.database.prepare(`
      SELECT t.thread_id, l.key, l.status, l.data, l.run_id, l.owner, l.created_at
      FROM graph_threads t JOIN graph_log l ON l.key = (
        SELECT max(key) FROM graph_log
        WHERE key > t.thread_no * ${seqSpan} AND key < (t.thread_no + 1) * ${seqSpan})${where}`);
    // Threads from an id on (every thread from ''), or by a prefix of their id, through the
    // index of graph_threads.thread_id.
    this.#selectLastsFrom = selectLasts(' WHERE t.thread_id >= ?');
    this.#selectLastsBetween = selectLasts(' WHERE t.thread_id >= ? AND t.thread_id < ?');
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
    if (!Number.isInteger(entry.seq) || entry.seq < 1 || entry.seq >= seqSpan) {
      throw new RangeError(
        `Cannot store step ${entry.seq} of thread "${entry.threadId}": steps go from 1 to ${seqSpan - 1}`,
      );
    }
    // Steps of concurrent runs share one commit; this resolves once the step is stored.
    let changes: number | bigint;
    try {
      changes = await this.#batch.run(() => this.#insertEntry(entry));
    } catch (error) {
      this.#anchors.delete(entry.threadId);
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
    if (entry.seq === 1) this.#addThread.run(entry.threadId);
    // A row names its run, owner and time only when the row before it, this instance's
    // own, does not name the same ones.
    const before = this.#anchors.get(entry.threadId);
    const anchor =
      before !== undefined && before.seq === entry.seq - 1 && inheritsFrom(before.anchor, entry)
        ? before.anchor
        : null;
    const row = encodeEntry(entry, anchor);
    const changes = this.#insert.run(
      entry.seq,
      row.status,
      row.data,
      row.runId,
      row.owner,
      row.createdAt,
      entry.threadId,
      entry.seq,
    ).changes;
    this.#anchors.delete(entry.threadId);
    if (changes !== 0 && entry.status === 'running') {
      this.#anchors.set(entry.threadId, {
        seq: entry.seq,
        anchor: anchor ?? { runId: entry.runId, owner: entry.owner, createdAt: entry.createdAt },
      });
      if (this.#anchors.size > rememberedAnchors) {
        this.#anchors.delete(this.#anchors.keys().next().value as string);
      }
    }
    return changes;
  }

  async read(threadId: string, afterSeq = 0): Promise<ThreadLog> {
    const thread = this.#selectThread.get(threadId) as ThreadRow | undefined;
    if (thread === undefined) return { base: null, entries: [] };
    const base: ThreadSnapshot | null =
      thread.base_seq !== null && thread.base_seq > afterSeq
        ? {
            seq: thread.base_seq,
            values: JSON.parse(thread.base_json as string) as Record<string, unknown>,
            createdAt: thread.base_created_at as number,
          }
        : null;
    const start = thread.thread_no * seqSpan;
    const rows = this.#selectRows.all(
      start + (base ? base.seq : afterSeq),
      start + seqSpan,
    ) as unknown as LogRow[];
    const first = rows[0];
    if (first === undefined) return { base, entries: [] };
    let anchor = first.run_id === null ? this.#anchorBefore(threadId, start, first.key) : null;
    const entries = rows.map((row) => {
      if (row.run_id !== null) anchor = anchorOf(row);
      return decodeEntry(threadId, row.key - start, row.status, row.data, anchor as Anchor);
    });
    return { base, entries };
  }

  /** The anchor a row (not one itself) inherits from: the last anchor before it. */
  #anchorBefore(threadId: string, start: number, key: number): Anchor {
    const row = this.#selectAnchor.get(key, start) as LogRow | undefined;
    if (row === undefined) {
      throw new Error(
        `Thread "${threadId}" is damaged: step ${key - start} has no earlier step naming its run`,
      );
    }
    return anchorOf(row);
  }

  async compact(threadId: string, snapshot: ThreadSnapshot): Promise<void> {
    this.#batch.flush();
    const thread = this.#selectThread.get(threadId) as ThreadRow | undefined;
    if (thread !== undefined && thread.base_seq !== null && snapshot.seq <= thread.base_seq) return;
    const start = (thread?.thread_no ?? 0) * seqSpan;
    const lastKey =
      thread === undefined
        ? null
        : (this.#lastKey.get(start, start + seqSpan) as { key: number | null }).key;
    const last = lastKey === null ? 0 : lastKey - start;
    if (thread === undefined || snapshot.seq >= last) {
      throw new RangeError(
        `Cannot compact thread "${threadId}" up to step ${snapshot.seq}: its last step is ${last} and must stay`,
      );
    }
    this.database.exec('BEGIN IMMEDIATE');
    try {
      // The first row kept names its run itself, as the rows it inherited from go.
      const kept = this.#selectRows.get(start + snapshot.seq, start + seqSpan) as unknown as LogRow;
      if (kept.run_id === null) {
        const anchor = this.#anchorBefore(threadId, start, kept.key);
        this.#anchorRow.run(anchor.runId, anchor.owner, anchor.createdAt, kept.key);
      }
      this.#setBase.run(
        snapshot.seq,
        JSON.stringify(snapshot.values),
        snapshot.createdAt,
        thread.thread_no,
      );
      this.#deleteUpTo.run(start, start + snapshot.seq);
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }

  async truncate(threadId: string, fromSeq: number): Promise<boolean> {
    this.#batch.flush();
    this.#anchors.delete(threadId);
    this.database.exec('BEGIN IMMEDIATE');
    try {
      const thread = this.#selectThread.get(threadId) as ThreadRow | undefined;
      const start = (thread?.thread_no ?? 0) * seqSpan;
      const removed =
        thread === undefined || (thread.base_seq ?? 0) >= fromSeq || fromSeq < 1
          ? 0
          : Number(this.#deleteRows.run(start + fromSeq - 1, start + seqSpan).changes);
      this.database.exec('COMMIT');
      return removed > 0;
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#batch.flush();
    this.#anchors.delete(threadId);
    this.database.exec('BEGIN IMMEDIATE');
    try {
      const thread = this.#selectThread.get(threadId) as ThreadRow | undefined;
      if (thread !== undefined) {
        const start = thread.thread_no * seqSpan;
        this.#deleteRows.run(start, start + seqSpan);
        this.#deleteThread.run(thread.thread_no);
      }
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }

  async listThreads(options: ListThreadsOptions = {}): Promise<ThreadInfo[]> {
    const wanted = options.status === undefined ? undefined : statusCode(options.status);
    const { prefix } = options;
    const end = prefix === undefined ? undefined : prefixEnd(prefix);
    const rows =
      prefix === undefined || end === undefined
        ? this.#selectLastsFrom.iterate(prefix ?? '')
        : this.#selectLastsBetween.iterate(prefix, end);
    const threads: ThreadInfo[] = [];
    for (const row of rows as Iterable<LogRow & { thread_id: string }>) {
      if (prefix !== undefined && !row.thread_id.startsWith(prefix)) continue;
      if (wanted !== undefined && row.status !== wanted) continue;
      const start = Math.floor(row.key / seqSpan) * seqSpan;
      const anchor =
        row.run_id === null ? this.#anchorBefore(row.thread_id, start, row.key) : anchorOf(row);
      const entry = decodeEntry(row.thread_id, row.key - start, row.status, row.data, anchor);
      threads.push({
        threadId: row.thread_id,
        lastSeq: entry.seq,
        status: entry.status,
        runId: entry.runId,
        updatedAt: entry.createdAt,
      });
    }
    return threads.sort(
      (a, b) =>
        b.updatedAt - a.updatedAt ||
        (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0),
    );
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
