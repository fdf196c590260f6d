import type {
  AppendOptions,
  CheckpointEntry,
  Checkpointer,
  ThreadLog,
} from '../checkpoint/types.ts';
import { applyEntry, type Superstep, superstepAfter } from '../planning/superstep.ts';
import { type AnyChannel, initialState, type StateSchema } from '../state.ts';

/** What the runtime knows of a thread: its state after `seq`, and its last entry. */
export interface ThreadRecord {
  threadId: string;
  seq: number;
  values: Record<string, unknown>;
  last: CheckpointEntry | null;
  /** Seqs of the input entries of the runs kept since the base snapshot. */
  runStarts: number[];
  /** The super-step the last run is in (its tasks and committed writes); null when it ended. */
  superstep: Superstep | null;
  /** The thread and step this thread was forked from, when it is a fork. */
  forkedFrom: { threadId: string; step: number } | null;
}

/**
 * A checkpointer seen through the state schema, with the latest state of recently
 * used threads kept in memory (least recently used dropped first). Every load asks
 * the checkpointer only for what came after the cached step, so a thread costs the
 * same to continue at turn 50 as at turn 1, and writes by other processes are seen.
 */
export class ThreadStore {
  readonly checkpointer: Checkpointer;
  #schema: StateSchema;
  #cache = new Map<string, ThreadRecord>();
  #cacheSize: number;

  constructor(schema: StateSchema, checkpointer: Checkpointer, cacheSize: number) {
    this.#schema = schema;
    this.checkpointer = checkpointer;
    this.#cacheSize = cacheSize;
  }

  /** The thread as stored now (an unknown thread has seq 0 and no last entry). */
  async load(threadId: string): Promise<ThreadRecord> {
    const cached = this.#cache.get(threadId);
    if (cached === undefined) {
      const log = await this.checkpointer.read(threadId, 0);
      const record = this.#fold(this.#emptyRecord(threadId), log);
      this.#remember(record);
      return record;
    }
    // Read from the cached last entry on: a log taken back since (a run rolled back, the
    // thread deleted) shows as that entry gone or changed, and the thread is read whole again.
    const log = await this.checkpointer.read(threadId, Math.max(0, cached.seq - 1));
    const first = log.entries[0];
    const same =
      cached.last === null ||
      log.base !== null ||
      (first !== undefined &&
        first.seq === cached.seq &&
        first.runId === cached.last.runId &&
        first.createdAt === cached.last.createdAt);
    if (!same) {
      this.#cache.delete(threadId);
      return this.load(threadId);
    }
    const after = cached.last === null || log.base !== null ? log.entries : log.entries.slice(1);
    if (log.base !== null || after.length > 0)
      this.#fold(cached, { base: log.base, entries: after });
    // Refresh the entry's place in the least-recently-used order.
    this.#cache.delete(threadId);
    this.#cache.set(threadId, cached);
    return cached;
  }

  /**
   * The thread as this instance knows it, without asking storage, when its last run has ended
   * (a thread never seen counts as empty); undefined when a run is going or paused on it. Only
   * for a caller whose next write is an append, which fails if the thread moved since.
   */
  peek(threadId: string): ThreadRecord | undefined {
    const cached = this.#cache.get(threadId);
    if (cached === undefined) {
      const record = this.#emptyRecord(threadId);
      this.#remember(record);
      return record;
    }
    const status = cached.last?.status;
    if (status === 'running' || status === 'interrupted') return undefined;
    this.#cache.delete(threadId);
    this.#cache.set(threadId, cached);
    return cached;
  }

  /** Commits an entry and, once it is stored, moves the record to it. */
  async commit(
    record: ThreadRecord,
    entry: CheckpointEntry,
    values: Record<string, unknown>,
    options?: AppendOptions,
  ) {
    try {
      await this.checkpointer.append(entry, options);
    } catch (error) {
      this.forget(record.threadId);
      throw error;
    }
    // A concurrent `load` (getState during the run) may already have folded this entry in.
    if (entry.kind === 'input' && record.runStarts.at(-1) !== entry.seq) {
      record.runStarts.push(entry.seq);
    }
    if (record.seq < entry.seq) {
      record.superstep = superstepAfter(record.superstep, entry);
    }
    record.seq = entry.seq;
    record.values = values;
    record.last = entry;
  }

  /**
   * The state after every entry up to and including `seq`, rebuilt from storage (or from
   * `log`, the thread's whole log when the caller has read it already).
   */
  async valuesAt(threadId: string, seq: number, log?: ThreadLog): Promise<Record<string, unknown>> {
    log ??= await this.checkpointer.read(threadId, 0);
    const record = this.#emptyRecord(threadId);
    this.#fold(record, {
      base: log.base,
      entries: log.entries.filter((entry) => entry.seq <= seq),
    });
    return record.values;
  }

  /** Drops a thread from the cache (after a delete, or when storage disagreed). */
  forget(threadId: string): void {
    this.#cache.delete(threadId);
  }

  /** The state as each entry of `log` left it, starting from its base. */
  *replay(log: ThreadLog): Generator<{ entry: CheckpointEntry; values: Record<string, unknown> }> {
    let values = log.base ? this.#baseValues(log.base.values) : initialState(this.#schema);
    let superstep: Superstep | null = null;
    for (const entry of log.entries) {
      ({ values, superstep } = applyEntry(this.#schema, values, superstep, entry));
      yield { entry, values };
    }
  }

  #emptyRecord(threadId: string): ThreadRecord {
    return {
      threadId,
      seq: 0,
      values: initialState(this.#schema),
      last: null,
      runStarts: [],
      superstep: null,
      forkedFrom: null,
    };
  }

  #fold(record: ThreadRecord, log: ThreadLog): ThreadRecord {
    if (log.base !== null) {
      record.values = this.#baseValues(log.base.values);
      record.seq = log.base.seq;
      record.runStarts = [];
      record.superstep = null;
    }
    for (const entry of log.entries) {
      ({ values: record.values, superstep: record.superstep } = applyEntry(
        this.#schema,
        record.values,
        record.superstep,
        entry,
      ));
      record.seq = entry.seq;
      record.last = entry;
      if (entry.kind === 'input') record.runStarts.push(entry.seq);
      if (entry.kind === 'fork') record.forkedFrom = entry.payload?.forkedFrom ?? null;
    }
    return record;
  }

  /** A stored snapshot read with today's schema: dropped fields skipped, new ones at their start. */
  #baseValues(values: Record<string, unknown>): Record<string, unknown> {
    const state = initialState(this.#schema) as Record<string, unknown>;
    for (const key of Object.keys(values)) {
      if ((this.#schema[key] as AnyChannel | undefined) !== undefined) state[key] = values[key];
    }
    return state;
  }

  #remember(record: ThreadRecord): void {
    this.#cache.set(record.threadId, record);
    if (this.#cache.size > this.#cacheSize) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
  }
}
