import type {
  CheckpointEntry,
  Checkpointer,
  EntryPayload,
  RunStatus,
} from '../checkpoint/types.ts';
import { applyUpdate, prepareUpdate, type StateSchema } from '../state.ts';
import { type Durability, END, type RunEnding } from '../types.ts';
import type { ThreadRecord, ThreadStore } from './thread-store.ts';

type Values = Record<string, unknown>;

/** What an entry says besides the run it belongs to. */
export interface EntryFields {
  kind: CheckpointEntry['kind'];
  node: string | null;
  step: number;
  update: Values | null;
  next: string | null;
  status?: RunStatus;
  error?: CheckpointEntry['error'];
  payload?: EntryPayload | null;
}

/** What committing a run's entries needs of its graph. */
export interface WritableGraph {
  schema: StateSchema;
  store: ThreadStore | undefined;
  closeRun:
    | ((values: Values, ending: RunEnding) => Record<string, unknown> | undefined)
    | undefined;
}

/**
 * Commits the entries of one run of one thread, stamped with the run id and this
 * instance as owner, one after another in the order they were given. Without a thread
 * or checkpointer it commits nothing. `flush` resolves once every entry is committed.
 */
export class RunWriter {
  readonly record: ThreadRecord | undefined;
  runId: string;
  #store: ThreadStore | undefined;
  #durability: Durability;
  /** The commits given so far, one after another (sync and async). */
  #tail: Promise<void> = Promise.resolve();
  #failure: unknown;
  /** Entries held until the run ends (exit). */
  #held: Array<{ fields: EntryFields; after: Values }> = [];
  /** Entries go to the checkpointer at once, which keeps their order (async and exit). */
  #handsOver: boolean;
  /** The seq of the last entry handed over that way. */
  #handedSeq = 0;

  constructor(
    store: ThreadStore | undefined,
    record: ThreadRecord | undefined,
    runId: string,
    durability: Durability = 'sync',
  ) {
    this.#store = store;
    this.record = record;
    this.runId = runId;
    this.#durability = durability;
    this.#handsOver = durability !== 'sync' && store?.checkpointer.ordersAppends === true;
  }

  /**
   * Commits one entry after those given before it (when the run is durable) and moves the
   * thread's record to it. In `sync` mode it resolves once the entry is stored; in `async`
   * and `exit` at once, and `flush` reports a failure.
   */
  commit(fields: EntryFields, after: Values): Promise<void> {
    if (this.record === undefined || this.#store === undefined) return Promise.resolve();
    if (this.#durability === 'exit') {
      this.#held.push({ fields, after });
      return Promise.resolve();
    }
    const stored = this.#enqueue(fields, after);
    return this.#durability === 'sync' ? stored : Promise.resolve();
  }

  /**
   * Queues one entry after those given before it: handed over to the checkpointer at once
   * when it keeps their order, else chained after the one before. Resolves once stored.
   */
  #enqueue(fields: EntryFields, after: Values): Promise<void> {
    if (this.#handsOver) {
      this.#handOver(fields, after);
      return Promise.resolve();
    }
    // After a failed commit nothing more is stored: the run fails with the first error.
    const stored = this.#tail.then(() =>
      this.#failure === undefined ? this.#append(fields, after) : undefined,
    );
    this.#tail = stored.catch((error: unknown) => {
      this.#failure ??= error;
    });
    return stored;
  }

  /** Resolves once every entry given so far is committed; rejects with the first failure. */
  async flush(): Promise<void> {
    for (const { fields, after } of this.#held.splice(0)) {
      // Its failure is reported below, through #tail.
      this.#enqueue(fields, after).catch(() => undefined);
    }
    await this.#tail.catch((error: unknown) => {
      this.#failure ??= error;
    });
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * Gives the checkpointer an entry without waiting for those before it (it commits a
   * thread's entries in order, and fails a run's later entries once one failed).
   */
  #handOver(fields: EntryFields, after: Values): void {
    if (this.#failure !== undefined) return;
    this.#handedSeq = Math.max(this.#handedSeq, (this.record as ThreadRecord).seq) + 1;
    const stored = this.#append(fields, after, this.#handedSeq).catch((error: unknown) => {
      this.#failure ??= error;
    });
    this.#tail = Promise.all([this.#tail, stored]).then(() => undefined);
  }

  async #append(fields: EntryFields, after: Values, seq?: number): Promise<void> {
    const record = this.record as ThreadRecord;
    const store = this.#store as ThreadStore;
    const next = fields.next === END ? null : fields.next;
    const entry: CheckpointEntry = {
      threadId: record.threadId,
      seq: seq ?? record.seq + 1,
      runId: this.runId,
      kind: fields.kind,
      node: fields.node,
      step: fields.step,
      update: fields.update,
      next,
      status: fields.status ?? (next === null ? 'done' : 'running'),
      error: fields.error ?? null,
      createdAt: Date.now(),
      owner: store.checkpointer.instanceId,
      payload: fields.payload ?? null,
    };
    // A sync run waits for each entry before it goes on: nothing of its own can join it.
    await store.commit(record, entry, after, { awaited: this.#durability === 'sync' });
  }

  /** The checkpointer the run commits to; undefined when it commits nothing. */
  get checkpointer(): Checkpointer | undefined {
    return this.record === undefined ? undefined : this.#store?.checkpointer;
  }

  /**
   * Commits the end of a run that did not reach END, with the graph's `closeRun` update
   * (tool calls closed, say), and waits for every entry to be committed. Returns the state
   * after it. The subgraph runs it leaves open are the caller's to end (`endRun`).
   */
  async end(
    graph: WritableGraph,
    values: Values,
    step: number,
    ending: RunEnding,
  ): Promise<Values> {
    const update = prepareUpdate(graph.schema, graph.closeRun?.(values, ending), '(run end)');
    const after = applyUpdate(graph.schema, values, update);
    await this.commit(
      {
        kind: 'end',
        node: null,
        step,
        update: update ?? null,
        next: END,
        status: ending.status,
        error: ending.error,
      },
      after,
    );
    await this.flush();
    return after;
  }
}
