/**
 * Where a run stands after an entry: still going, paused until someone answers its
 * interrupts, or ended one way or another.
 */
export type RunStatus = 'running' | 'interrupted' | 'done' | 'error' | 'cancelled' | 'failed';

/**
 * What an entry records: a run's input, a node's step (the last task of a super-step), a
 * task of a super-step of several that finished before the others (`task`), a node
 * pausing the run (`interrupt`), the answers that continue it (`resume`), a run's
 * abnormal end, or the start of a fork (`fork`: the update made to the forked state).
 */
export type EntryKind = 'input' | 'node' | 'task' | 'interrupt' | 'resume' | 'end' | 'fork';

/** One task of a super-step: a node, and the input a `send` gave it (else it sees the state). */
export interface Task {
  node: string;
  input?: Record<string, unknown>;
}

/** A question a paused run waits on (for example: may this tool call run?). */
export interface PendingInterrupt {
  /** Stable while the question is open; answers name it. */
  id: string;
  /** The node's own name for the question (a tool call id), unique within one pause. */
  key: string;
  node: string;
  /** What the node asked, plain JSON data. */
  value: unknown;
  createdAt: number;
  /** When a subgraph asked: its node, then the inner node that asked (`["research", "check"]`). */
  path?: string[];
}

/**
 * What `interrupt` and `resume` entries carry: the open questions, the answers given,
 * and the ids of every question of this run answered so far (to refuse a second answer).
 */
export interface EntryPayload {
  interrupts: PendingInterrupt[];
  answered: string[];
  /** Only on `resume` entries: the answers by interrupt id. */
  answers?: Record<string, unknown>;
  /** In a super-step of several tasks: the committing task's place in it. */
  task?: number;
  /** On a `task` entry: the work an interrupted task did before asking (it runs again). */
  partial?: true;
  /** The next super-step's tasks, when they are more than the entry's `next` alone. */
  tasks?: Task[];
  /** Joins (by key) waiting for more of their sources, with the sources that finished. */
  joins?: Record<string, string[]>;
  /** On a `fork` entry: the thread and step it was forked from. */
  forkedFrom?: { threadId: string; step: number };
}

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
  /** The instance (process) that committed the entry, for telling live runs from dead ones. */
  owner: string | null;
  /** Interrupts and answers (`interrupt` and `resume` entries), else null. */
  payload: EntryPayload | null;
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
 * Durable storage for graph threads. Every backend (memory, SQLite, PostgreSQL)
 * passes the same conformance suite (`checkpointer-conformance.ts` beside this file).
 * Methods are async so that a networked backend fits the same shape.
 */
/** Which threads `listThreads` gives. */
export interface ListThreadsOptions {
  status?: RunStatus;
  /** Only threads whose id starts with it, found without going through the others. */
  prefix?: string;
}

/** How an entry is appended (see `Checkpointer.append`). */
export interface AppendOptions {
  /** The caller waits for this commit before doing anything else. */
  awaited?: boolean;
}

/**
 * The smallest string after every string that starts with `prefix` (compared by code unit,
 * as UTF-8 bytes compare, when its last character is ASCII), for a range query on an index;
 * undefined when there is no such bound to give (the caller then filters).
 */
export function prefixEnd(prefix: string): string | undefined {
  const last = prefix.charCodeAt(prefix.length - 1);
  if (Number.isNaN(last) || last >= 0x7f) return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

export interface Checkpointer {
  /**
   * This instance's id. Entries the runtime commits through it carry it as `owner`, and
   * the instance keeps a heartbeat in storage while it is open.
   */
  readonly instanceId: string;
  /**
   * True when appends of one thread given one after another without waiting are committed in
   * that order, and once one of a run fails its later ones fail too. The runtime then hands a
   * run's steps over without waiting in `async` and `exit` durability (one round trip for
   * several steps on a networked store); without it, each waits for the one before.
   */
  readonly ordersAppends?: boolean;
  /**
   * True when a read costs a round trip to a server. The runtime then starts a new run on a
   * thread it holds (or one it has never seen) without reading it first, in `sync`
   * durability: the input's append fails with CheckpointConflictError when the thread moved,
   * and the run reads it and starts again.
   */
  readonly remoteReads?: boolean;
  /**
   * Whether the instance `instanceId` is still running: this instance, or another one
   * whose heartbeat is fresher than the lease (30 s by default). A run whose last entry
   * was written by a dead instance was interrupted and may be taken over.
   */
  isAlive(instanceId: string): Promise<boolean>;
  /**
   * Commits one entry atomically. Fails with CheckpointConflictError when the thread
   * already has an entry at `entry.seq`, or when `entry.seq` is not the next number —
   * that is how two writers of one thread find out about each other. `options.awaited`:
   * the caller waits for this commit before it does anything else (a `sync` step), so a
   * checkpointer that groups appends may send it at once instead of waiting for others.
   */
  append(entry: CheckpointEntry, options?: AppendOptions): Promise<void>;
  /**
   * The thread's log after `afterSeq` (default 0): the base snapshot when it is newer
   * than `afterSeq`, then the entries with a larger seq, in order. An unknown thread
   * gives `{base: null, entries: []}`.
   */
  read(threadId: string, afterSeq?: number): Promise<ThreadLog>;
  /** Replaces the entries up to `snapshot.seq` with the snapshot, atomically. */
  compact(threadId: string, snapshot: ThreadSnapshot): Promise<void>;
  /**
   * Removes the thread's entries from `fromSeq` on (a run taken back), atomically: the next
   * append is `fromSeq`. False, removing nothing, when there is no such entry or the base
   * snapshot reaches `fromSeq`.
   */
  truncate(threadId: string, fromSeq: number): Promise<boolean>;
  /** Removes a thread and everything stored for it. */
  deleteThread(threadId: string): Promise<void>;
  /**
   * Every thread with its last entry's status, newest first; optionally only those with a
   * status, or whose id starts with `prefix` (a subgraph's threads under their parent's).
   */
  listThreads(options?: ListThreadsOptions): Promise<ThreadInfo[]>;
  /** Releases the backend's resources and ends this instance's heartbeat. */
  close(): Promise<void>;
}
