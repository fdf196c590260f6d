/** Where a run stands after an entry: still going, or ended one way or another. */
export type RunStatus = 'running' | 'done' | 'error' | 'cancelled' | 'failed';

/** What an entry records: a run's input, a node's step, or a run's abnormal end. */
export type EntryKind = 'input' | 'node' | 'end';

/**
 * One committed step of a thread. A thread's state is its base snapshot (if any)
 * with every entry's `update` applied in `seq` order, so storage grows by what each
 * step changed, never by a full snapshot.
 */
export interface CheckpointEntry {
  threadId: string;
  /** 1, 2, 3, … per thread, with no gaps; continues after a compaction. */
  seq: number;
  runId: string;
  kind: EntryKind;
  /** The node that produced the update (`kind: 'node'`), else null. */
  node: string | null;
  /** Node executions of this run so far, this one included. */
  step: number;
  /** The prepared update (plain JSON data), or null when the entry changes nothing. */
  update: Record<string, unknown> | null;
  /** The node to run next; null when the run has ended. */
  next: string | null;
  status: RunStatus;
  error: { code: string; message: string } | null;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** A thread's state folded up to `seq`, kept in place of the entries it replaces. */
export interface ThreadSnapshot {
  seq: number;
  values: Record<string, unknown>;
  createdAt: number;
}

/** What a checkpointer returns for a thread: the base (if newer than asked) and the entries after. */
export interface ThreadLog {
  base: ThreadSnapshot | null;
  entries: CheckpointEntry[];
}

/** One line of a thread listing. */
export interface ThreadInfo {
  threadId: string;
  lastSeq: number;
  status: RunStatus;
  runId: string;
  updatedAt: number;
}

/**
 * Durable storage for graph threads. Every backend (memory, SQLite, later PostgreSQL)
 * passes the same conformance suite (`src/testing/index.ts`).
 * Methods are async so that a networked backend fits the same shape.
 */
export interface Checkpointer {
  /**
   * Commits one entry atomically. Fails with CheckpointConflictError when the thread
   * already has an entry at `entry.seq`, or when `entry.seq` is not the next number —
   * that is how two writers of one thread find out about each other.
   */
  append(entry: CheckpointEntry): Promise<void>;
  /**
   * The thread's log after `afterSeq` (default 0): the base snapshot when it is newer
   * than `afterSeq`, then the entries with a larger seq, in order. An unknown thread
   * gives `{base: null, entries: []}`.
   */
  read(threadId: string, afterSeq?: number): Promise<ThreadLog>;
  /** Replaces the entries up to `snapshot.seq` with the snapshot, atomically. */
  compact(threadId: string, snapshot: ThreadSnapshot): Promise<void>;
  /** Removes a thread and everything stored for it. */
  deleteThread(threadId: string): Promise<void>;
  /** Every thread with its last entry's status, newest first; optionally only those with a status. */
  listThreads(options?: { status?: RunStatus }): Promise<ThreadInfo[]>;
  /** Releases the backend's resources. */
  close(): Promise<void>;
}
