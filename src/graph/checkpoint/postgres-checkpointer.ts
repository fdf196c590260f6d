import {
  createPostgresPool,
  type PostgresPool,
  type PostgresPoolOptions,
  poolTarget,
  queryPostgres,
  toStoreError,
  withTransaction,
} from '../../core/index.ts';
import { defaultLeaseMs, hostIdentity, newInstanceId, processExists } from './host-identity.ts';
import { PostgresAppendBatch } from './postgres-append-batch.ts';
import { segmentEntries } from './segment-lines.ts';
import { truncateSegments } from './truncate-segments.ts';
import {
  type AppendOptions,
  type CheckpointEntry,
  type Checkpointer,
  type ListThreadsOptions,
  prefixEnd,
  type RunStatus,
  type ThreadInfo,
  type ThreadLog,
  type ThreadSnapshot,
} from './types.ts';

/** How a PostgreSQL checkpointer keeps its heartbeat, and how durable each step is. */
export interface PostgresCheckpointerOptions {
  /** How long an instance counts as alive after its last heartbeat (default 30 s); it beats every third of that. */
  leaseMs?: number;
  /**
   * `process` (default): every step is committed before the run goes on, so it survives any
   * Yeoul process being killed; a run's last entry (its answer or its pause) also waits for the
   * database to have it on disk, taking the steps before it along. `power`: every step waits
   * for the disk (what the server's `synchronous_commit` says), at a cost per step.
   */
  durability?: 'process' | 'power';
}

interface SegmentRow extends Record<string, unknown> {
  first_seq: number;
  last_seq: number;
  updated_at: string;
  data: string;
}

interface ThreadRow extends Record<string, unknown> {
  thread_id: string;
  last_seq: number;
  status: RunStatus;
  run_id: string;
  updated_at: string;
}

// The base when it is newer than $2, and the segments from the one holding $2 + 1 on.
const readSql = {
  name: 'yeoul_graph_read',
  text: `SELECT first_seq, last_seq, updated_at, data FROM graph_segments
    WHERE thread_id = $1 AND ((first_seq = 0 AND last_seq > $2) OR first_seq >= (
      SELECT coalesce(max(first_seq), 1) FROM graph_segments
      WHERE thread_id = $1 AND first_seq > 0 AND first_seq <= $2 + 1))
    ORDER BY first_seq`,
};

// The whole thread (a read from the start: the base, if any, and every segment).
const readAllSql = {
  name: 'yeoul_graph_read_all',
  text: `SELECT first_seq, last_seq, updated_at, data FROM graph_segments
    WHERE thread_id = $1 ORDER BY first_seq`,
};

// Each thread's last segment, found by skipping through the primary key thread by thread.
const threadsSql = `
WITH RECURSIVE threads AS (
  (SELECT thread_id FROM graph_segments ORDER BY thread_id LIMIT 1)
  UNION ALL
  SELECT (SELECT s.thread_id FROM graph_segments s WHERE s.thread_id > t.thread_id
    ORDER BY s.thread_id LIMIT 1) FROM threads t WHERE t.thread_id IS NOT NULL
)
SELECT last.* FROM threads t CROSS JOIN LATERAL (
  SELECT thread_id, last_seq, status, run_id, updated_at FROM graph_segments s
  WHERE s.thread_id = t.thread_id ORDER BY first_seq DESC LIMIT 1
) last
WHERE t.thread_id IS NOT NULL AND ($1::text IS NULL OR last.status = $1)
ORDER BY last.updated_at DESC, last.thread_id`;

// The threads whose id starts with $1 (found through the primary key's range up to $2, when
// there is a bound), optionally only those whose last entry has status $3.
const threadsByPrefixSql = `
SELECT * FROM (
  SELECT DISTINCT ON (thread_id) thread_id, last_seq, status, run_id, updated_at
  FROM graph_segments
  WHERE thread_id >= $1 AND ($2::text IS NULL OR thread_id < $2)
  ORDER BY thread_id, first_seq DESC
) last
WHERE starts_with(last.thread_id, $1) AND ($3::text IS NULL OR last.status = $3)
ORDER BY last.updated_at DESC, last.thread_id`;

// The running threads, from the set the triggers of migration 201 keep: as many lookups as
// threads run, however many are stored.
const runningThreadsSql = `
SELECT last.* FROM graph_running_threads r CROSS JOIN LATERAL (
  SELECT thread_id, last_seq, status, run_id, updated_at FROM graph_segments s
  WHERE s.thread_id = r.thread_id ORDER BY first_seq DESC LIMIT 1
) last
WHERE last.status = 'running'
ORDER BY last.updated_at DESC, last.thread_id`;

/**
 * Threads in PostgreSQL, shared by every instance on one database (apply
 * `checkpointMigrations` first). A thread is a few rows of segments: consecutive entries as
 * JSON lines, the open segment growing by a line per step until `segmentSealBytes` (the
 * server compresses any segment past about 2 KB, as TOAST does). Appends of concurrent runs share one statement and commit (group
 * commit), each resolving once committed; an entry whose seq is taken or out of order fails
 * alone with CheckpointConflictError. Instances keep a heartbeat in `graph_instances`.
 * @example
 * const checkpointer = await PostgresCheckpointer.open(pool);
 * const graph = builder.compile({ checkpointer });
 */
export class PostgresCheckpointer implements Checkpointer {
  readonly pool: PostgresPool;
  readonly instanceId = newInstanceId();
  readonly ordersAppends = true;
  readonly remoteReads = true;
  readonly leaseMs: number;
  #batch: PostgresAppendBatch;
  #heartbeat: NodeJS.Timeout | undefined;
  #ownsPool = false;
  #closed = false;
  /** Whether the last heartbeat failed (the database unreachable), and when one worked again. */
  #beatFailing = false;
  #recoveredAt = Number.NEGATIVE_INFINITY;
  /** When this instance's last heartbeat was stored. */
  #lastBeatAt = Number.NEGATIVE_INFINITY;

  private constructor(pool: PostgresPool, options: PostgresCheckpointerOptions) {
    this.pool = pool;
    this.leaseMs = options.leaseMs ?? defaultLeaseMs;
    this.#batch = new PostgresAppendBatch(pool, {
      waitForEveryStep: options.durability === 'power',
    });
  }

  /** A checkpointer on `pool` (shared: `close()` leaves it open), its first heartbeat stored. */
  static async open(
    pool: PostgresPool,
    options: PostgresCheckpointerOptions = {},
  ): Promise<PostgresCheckpointer> {
    const checkpointer = new PostgresCheckpointer(pool, options);
    await checkpointer.#beat();
    // A heartbeat is one small write every third of the lease; the timer keeps nothing alive.
    checkpointer.#heartbeat = setInterval(() => {
      checkpointer.#beat().catch(() => undefined);
    }, checkpointer.leaseMs / 3);
    checkpointer.#heartbeat.unref();
    return checkpointer;
  }

  /** A checkpointer with a pool of its own for `connection`, which `close()` ends. */
  static async connect(
    connection: PostgresPoolOptions,
    options: PostgresCheckpointerOptions = {},
  ): Promise<PostgresCheckpointer> {
    const pool = await createPostgresPool(connection);
    try {
      const checkpointer = await PostgresCheckpointer.open(pool, options);
      checkpointer.#ownsPool = true;
      return checkpointer;
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  async #beat(): Promise<void> {
    try {
      await queryPostgres(
        this.pool,
        `INSERT INTO graph_instances (instance_id, heartbeat_at, host, pid) VALUES ($1, now(), $2, $3)
         ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = now()`,
        [this.instanceId, hostIdentity(), process.pid],
      );
    } catch (error) {
      this.#beatFailing = true;
      throw error;
    }
    const now = Date.now();
    // A beat that failed, or came late (its statement waited for the pool or the database),
    // leaves a gap in this instance's heartbeats, and likely in the others'.
    if (this.#beatFailing || this.#beatOverdue(now)) {
      this.#beatFailing = false;
      if (this.#lastBeatAt !== Number.NEGATIVE_INFINITY) this.#recoveredAt = now;
    }
    this.#lastBeatAt = now;
  }

  /** Whether this instance's heartbeat is late: two beats (of a third of the lease) missed. */
  #beatOverdue(now: number): boolean {
    return now - this.#lastBeatAt > (this.leaseMs * 2) / 3;
  }

  async isAlive(instanceId: string): Promise<boolean> {
    if (instanceId === this.instanceId) return !this.#closed;
    // The database's clock decides, so that instances on machines whose clocks differ agree.
    const { rows } = await queryPostgres<{ host: string; pid: number; fresh: boolean }>(
      this.pool,
      `SELECT host, pid, heartbeat_at > now() - $2 * interval '1 millisecond' AS fresh
       FROM graph_instances WHERE instance_id = $1`,
      [instanceId, this.leaseMs],
    );
    const row = rows[0];
    if (row === undefined) return false;
    // While this instance's own heartbeat fails or is late, and for one lease after, a stale
    // heartbeat proves nothing: the database (or the pool) was away for everyone, and the
    // others beat again within a third of the lease once it is back.
    const now = Date.now();
    const justBack =
      this.#beatFailing || this.#beatOverdue(now) || now - this.#recoveredAt < this.leaseMs;
    if (!row.fresh && !justBack) return false;
    // On this machine a killed process is known dead at once, without waiting for its lease.
    return row.host !== hostIdentity() || processExists(row.pid);
  }

  append(entry: CheckpointEntry, options?: AppendOptions): Promise<void> {
    return this.#batch.append(entry, options?.awaited === true);
  }

  async read(threadId: string, afterSeq = 0): Promise<ThreadLog> {
    let rows: SegmentRow[];
    try {
      rows = (
        afterSeq === 0
          ? await this.pool.query<SegmentRow>({ ...readAllSql, values: [threadId] })
          : await this.pool.query<SegmentRow>({ ...readSql, values: [threadId, afterSeq] })
      ).rows;
    } catch (error) {
      throw toStoreError(error, poolTarget(this.pool));
    }
    let base: ThreadSnapshot | null = null;
    const entries: CheckpointEntry[] = [];
    for (const row of rows) {
      if (row.first_seq === 0) {
        if (row.last_seq > afterSeq) {
          const values = JSON.parse(row.data) as Record<string, unknown>;
          base = { seq: row.last_seq, values, createdAt: Number(row.updated_at) };
        }
        continue;
      }
      // A segment may straddle the base (compaction drops only whole segments).
      const after = Math.max(afterSeq, base?.seq ?? 0);
      for (const entry of segmentEntries(threadId, row.data)) {
        if (entry.seq > after) entries.push(entry);
      }
    }
    return { base, entries };
  }

  async compact(threadId: string, snapshot: ThreadSnapshot): Promise<void> {
    await this.#batch.drain();
    await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ base: number | null; last: number | null }>(
        `SELECT (SELECT last_seq FROM graph_segments WHERE thread_id = $1 AND first_seq = 0) AS base,
           (SELECT max(last_seq) FROM graph_segments WHERE thread_id = $1 AND first_seq > 0) AS last`,
        [threadId],
      );
      const base = rows[0]?.base ?? null;
      const last = rows[0]?.last ?? 0;
      if (base !== null && snapshot.seq <= base) return;
      if (snapshot.seq >= last) {
        throw new RangeError(
          `Cannot compact thread "${threadId}" up to step ${snapshot.seq}: its last step is ${last} and must stay`,
        );
      }
      await client.query(
        `INSERT INTO graph_segments
           (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
         VALUES ($1, 0, $2, $3, 0, true, 'base', '', $4)
         ON CONFLICT (thread_id, first_seq) DO UPDATE
           SET last_seq = excluded.last_seq, updated_at = excluded.updated_at, data = excluded.data
           WHERE graph_segments.last_seq < excluded.last_seq`,
        [threadId, snapshot.seq, snapshot.createdAt, JSON.stringify(snapshot.values)],
      );
      await client.query(
        'DELETE FROM graph_segments WHERE thread_id = $1 AND first_seq > 0 AND last_seq <= $2',
        [threadId, snapshot.seq],
      );
    });
  }

  async truncate(threadId: string, fromSeq: number): Promise<boolean> {
    await this.#batch.drain();
    return withTransaction(this.pool, (client) => truncateSegments(client, threadId, fromSeq));
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.#batch.drain();
    await queryPostgres(this.pool, 'DELETE FROM graph_segments WHERE thread_id = $1', [threadId]);
  }

  async listThreads(options: ListThreadsOptions = {}): Promise<ThreadInfo[]> {
    const { prefix, status } = options;
    if (prefix !== undefined) {
      const { rows } = await queryPostgres<ThreadRow>(this.pool, threadsByPrefixSql, [
        prefix,
        prefixEnd(prefix) ?? null,
        status ?? null,
      ]);
      return threadInfos(rows);
    }
    const { rows } =
      status === 'running'
        ? await queryPostgres<ThreadRow>(this.pool, runningThreadsSql)
        : await queryPostgres<ThreadRow>(this.pool, threadsSql, [status ?? null]);
    return threadInfos(rows);
  }

  /** Stops the heartbeat and removes it (this instance's runs are seen as interrupted at once). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    await this.#batch.drain();
    // Heartbeats of instances dead for a day are swept along. A database that is gone
    // already cannot be told; the lease then runs out instead.
    await queryPostgres(
      this.pool,
      `DELETE FROM graph_instances WHERE instance_id = $1 OR heartbeat_at < now() - interval '1 day'`,
      [this.instanceId],
    ).catch(() => undefined);
    if (this.#ownsPool) await this.pool.end();
  }
}

function threadInfos(rows: readonly ThreadRow[]): ThreadInfo[] {
  return rows.map((row) => ({
    threadId: row.thread_id,
    lastSeq: row.last_seq,
    status: row.status,
    runId: row.run_id,
    updatedAt: Number(row.updated_at),
  }));
}
