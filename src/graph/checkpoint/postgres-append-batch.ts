import {
  isConnectionFailure,
  type PostgresPool,
  poolTarget,
  toStoreError,
} from '../../core/index.ts';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import {
  appendEndSql,
  appendFirstSql,
  appendNextSql,
  appendOneSql,
  appendRowsSql,
} from './postgres-append-statements.ts';
import { segmentSealBytes } from './postgres-checkpoint-migrations.ts';
import { entryLine } from './segment-lines.ts';
import type { CheckpointEntry } from './types.ts';

interface PendingAppend {
  entry: CheckpointEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A thread's last row as this process wrote it, while its status is running. */
interface KnownTail {
  firstSeq: number;
  lastSeq: number;
  pending: number;
}

/** Threads tracked at most (runs left unfinished by a lost database are forgotten past it). */
const knownTailsLimit = 10_000;

/** Entries that go in one tail row: consecutive entries of one run of one thread. */
interface Row {
  first: CheckpointEntry;
  last: CheckpointEntry;
  /** Its entries, first to last, and their lines. */
  entries: CheckpointEntry[];
  lines: string[];
}

/**
 * The rows of a call: consecutive entries of one run of a thread (a run in async or exit
 * durability hands its steps over together, interleaved with other threads' in a busy
 * server) share a row, one insert on the server instead of one each. A thread's rows keep
 * the order its entries came in.
 */
function rowsOf(entries: readonly CheckpointEntry[]): Row[] {
  const rows: Row[] = [];
  const lastRow = new Map<string, Row>();
  for (const entry of entries) {
    const row = lastRow.get(entry.threadId);
    if (row !== undefined && row.last.runId === entry.runId && row.last.seq + 1 === entry.seq) {
      row.last = entry;
      row.entries.push(entry);
      row.lines.push(entryLine(entry));
    } else {
      const started = { first: entry, last: entry, entries: [entry], lines: [entryLine(entry)] };
      rows.push(started);
      lastRow.set(entry.threadId, started);
    }
  }
  return rows;
}

/**
 * Group commit for PostgreSQL: entries appended in the same turn of the event loop (steps of
 * concurrent runs) go to the server in one call of `yeoul_graph_append_rows`, one statement and
 * one commit (consecutive entries of one run in one row), and each caller's promise settles
 * once it has committed. A conflicting entry fails alone (the function reports it instead of
 * raising); should the whole call fail for another reason, its entries are tried one by one so
 * that only the faulty one fails.
 *
 * Entries of one thread are committed in the order given, even when the caller does not wait
 * between them (a run in `async` durability): while a call holds a thread's entries, its
 * later ones wait for the next call. Once an entry of a run fails, the run's later entries
 * fail too, in the same call (the function sees to it) or after it.
 */
export class PostgresAppendBatch {
  #pool: PostgresPool;
  #pending: PendingAppend[] = [];
  #scheduled = false;
  #inFlight = new Set<Promise<void>>();
  /** Threads with entries in a call that has not settled yet. */
  #busyThreads = new Set<string>();
  /** `thread\nrun` of runs that just lost an entry, with the error to give their later ones. */
  #failedRuns = new Map<string, unknown>();
  #waitForEveryStep: boolean;
  /** The running threads whose last row this process appended, for the shorter statement. */
  #knownTails = new Map<string, KnownTail>();

  /** `waitForEveryStep`: every commit waits for the WAL on disk, not only a run's last entry's. */
  constructor(pool: PostgresPool, options: { waitForEveryStep?: boolean } = {}) {
    this.#pool = pool;
    this.#waitForEveryStep = options.waitForEveryStep ?? false;
  }

  /**
   * Appends `entry` with the next group; resolves once committed, rejects on a conflict.
   * The group is what this turn of the event loop appends, sent after it; an `awaited`
   * entry (its run waits for it before going on) that finds nothing else on its way goes
   * out as soon as the code running now is done: each microsecond between a step's commit
   * and the next one's statement costs a sync run more than that (the database server has
   * gone idle meanwhile).
   */
  append(entry: CheckpointEntry, awaited = false): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ entry, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      if (awaited && this.#pending.length === 1 && this.#inFlight.size === 0) {
        queueMicrotask(() => this.#flush());
      } else {
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Waits for every group sent so far to settle (before closing the pool). */
  async drain(): Promise<void> {
    while (this.#pending.length > 0 || this.#inFlight.size > 0) {
      if (this.#pending.length > 0) this.#flush();
      await Promise.allSettled([...this.#inFlight]);
    }
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const group: PendingAppend[] = [];
    const held: PendingAppend[] = [];
    for (const item of this.#pending) {
      const failure = this.#failedRuns.get(runKey(item.entry));
      if (failure !== undefined) item.reject(failure);
      else if (this.#busyThreads.has(item.entry.threadId)) held.push(item);
      else group.push(item);
    }
    this.#pending = held;
    if (group.length === 0) return;
    const threads = new Set(group.map((item) => item.entry.threadId));
    for (const threadId of threads) this.#busyThreads.add(threadId);
    const sent: Promise<void> = this.#send(group)
      .then(undefined, () => undefined)
      .then(() => {
        this.#inFlight.delete(sent);
        for (const threadId of threads) this.#busyThreads.delete(threadId);
        if (this.#pending.length > 0) this.#flush();
      });
    this.#inFlight.add(sent);
  }

  /**
   * Fails `item`, and the later entries of its run handed over before the run could know
   * (those waiting now, or given in this turn of the event loop: by the next, its writer knows).
   */
  #fail(item: PendingAppend, error: unknown, lost: Map<string, unknown>): void {
    const key = runKey(item.entry);
    if (this.#failedRuns.size === 0) setImmediate(() => this.#failedRuns.clear());
    if (!this.#failedRuns.has(key)) this.#failedRuns.set(key, error);
    if (!lost.has(key)) lost.set(key, error);
    item.reject(error);
  }

  /** Sends `group` in one call; resolves with the runs that lost an entry. */
  async #send(group: PendingAppend[]): Promise<Map<string, unknown>> {
    const lost = new Map<string, unknown>();
    let outcomes: boolean[];
    try {
      outcomes = await this.#call(group.map((item) => item.entry));
    } catch (error) {
      if (group.length > 1 && !isConnectionFailure(error)) {
        // One entry the server refuses (a value it cannot store) must not fail the others;
        // one after another, so that a thread's entries keep their order.
        for (const item of group) {
          const key = runKey(item.entry);
          const failure = lost.get(key);
          if (failure !== undefined) item.reject(failure);
          else for (const [run, error] of await this.#send([item])) lost.set(run, error);
        }
        return lost;
      }
      const failure = toStoreError(error, poolTarget(this.#pool));
      for (const item of group) this.#fail(item, failure, lost);
      return lost;
    }
    group.forEach((item, index) => {
      if (outcomes[index] === true) item.resolve();
      else {
        const { threadId, seq } = item.entry;
        this.#fail(item, new CheckpointConflictError({ threadId, seq }), lost);
      }
    });
    return lost;
  }

  /** Sends `entries` in one call; the outcome of each (true: appended, false: a conflict). */
  async #call(entries: CheckpointEntry[]): Promise<boolean[]> {
    const rows = rowsOf(entries);
    // A run's last entry (its answer, its pause) waits for the disk; steps before it need
    // only survive this process, which any commit does.
    const wait = this.#waitForEveryStep || entries.some((entry) => entry.status !== 'running');
    const appended =
      rows.length === 1 && rows[0] !== undefined
        ? [await this.#appendOne(rows[0], wait)]
        : await this.#appendRows(rows, wait);
    const outcomes = new Map<CheckpointEntry, boolean>();
    rows.forEach((row, index) => {
      for (const entry of row.entries) outcomes.set(entry, appended[index] === true);
    });
    return entries.map((entry) => outcomes.get(entry) === true);
  }

  /** One row in one statement; the function when it seals the thread's tail. */
  async #appendOne(row: Row, wait: boolean): Promise<boolean> {
    const threadId = row.first.threadId;
    const known = this.#knownTails.get(threadId);
    this.#knownTails.delete(threadId);
    const data = row.lines.join('\n');
    if (known !== undefined && known.lastSeq + 1 === row.first.seq) {
      const pending = known.pending + Buffer.byteLength(data) + 1;
      if (
        pending < segmentSealBytes &&
        (await this.#appendFollowing(row, data, wait, known, pending))
      ) {
        this.#remember(row, pending);
        return true;
      }
    } else if (row.first.seq === 1) {
      // A new thread's first row; false here is a conflict (the thread has rows already).
      const pending = Buffer.byteLength(data) + 1;
      if (pending < segmentSealBytes) {
        const values = rowParameters(row, data, wait, pending);
        if ((await this.#pool.query({ ...appendFirstSql, values })).rowCount !== 1) return false;
        this.#remember(row, pending);
        return true;
      }
    }
    const { rows } = await this.#pool.query<{
      appended: boolean;
      seals: boolean;
      pending: number | null;
    }>({ ...appendOneSql, values: rowParameters(row, data, wait, segmentSealBytes) });
    if (rows[0]?.seals === true) return (await this.#appendRows([row], wait))[0] === true;
    if (rows[0]?.appended !== true) return false;
    if (rows[0].pending !== null) this.#remember(row, rows[0].pending);
    return true;
  }

  /** The shorter statement for a thread's next row; false when it did not insert it. */
  async #appendFollowing(
    row: Row,
    data: string,
    wait: boolean,
    known: KnownTail,
    pending: number,
  ): Promise<boolean> {
    const values = [...rowParameters(row, data, wait, pending), known.firstSeq, known.pending];
    if (row.last.status === 'running') {
      return (await this.#pool.query({ ...appendNextSql, values })).rowCount === 1;
    }
    const { rows } = await this.#pool.query<{ appended: boolean }>({ ...appendEndSql, values });
    return rows[0]?.appended === true;
  }

  /** Notes the row just appended as its thread's last while the thread runs. */
  #remember(row: Row, pending: number): void {
    if (row.last.status !== 'running') return;
    if (this.#knownTails.size >= knownTailsLimit) this.#knownTails.clear();
    this.#knownTails.set(row.first.threadId, {
      firstSeq: row.first.seq,
      lastSeq: row.last.seq,
      pending,
    });
  }

  async #appendRows(rows: Row[], wait: boolean): Promise<boolean[]> {
    for (const row of rows) this.#knownTails.delete(row.first.threadId);
    const result = await this.#pool.query<{ appended: boolean[] }>({
      ...appendRowsSql,
      values: [
        rows.map((row) => row.first.threadId),
        rows.map((row) => row.first.seq),
        rows.map((row) => row.last.seq),
        rows.map((row) => row.last.status),
        rows.map((row) => row.first.runId),
        rows.map((row) => row.last.createdAt),
        rows.map((row) => row.lines.join('\n')),
        segmentSealBytes,
        wait,
      ],
    });
    return result.rows[0]?.appended ?? [];
  }
}

/**
 * $1 to $9 of the one-row statements: the row's thread, first and last seq, status, run,
 * time, lines (`data`), whether the commit waits for the disk, and `ninth` (the thread's
 * pending bytes with this row, or the size that seals a tail).
 */
function rowParameters(row: Row, data: string, wait: boolean, ninth: number): unknown[] {
  const { first, last } = row;
  return [
    first.threadId,
    first.seq,
    last.seq,
    last.status,
    first.runId,
    last.createdAt,
    data,
    wait,
    ninth,
  ];
}

/** The key of an entry's run (a thread's runs are told apart by their ids). */
function runKey(entry: CheckpointEntry): string {
  return `${entry.threadId}\n${entry.runId}`;
}
