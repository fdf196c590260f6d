import type { CheckpointEntry, EntryPayload, RunStatus } from './checkpoint/types.ts';
import { applyUpdate, prepareUpdate, type StateSchema } from './state.ts';
import type { ThreadRecord, ThreadStore } from './thread-store.ts';
import { END, type RunEnding } from './types.ts';

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
 * instance as owner. Without a thread or checkpointer it commits nothing.
 */
export class RunWriter {
  readonly record: ThreadRecord | undefined;
  runId: string;
  #store: ThreadStore | undefined;

  constructor(store: ThreadStore | undefined, record: ThreadRecord | undefined, runId: string) {
    this.#store = store;
    this.record = record;
    this.runId = runId;
  }

  /** Commits one entry (when the run is durable) and moves the thread's record to it. */
  async commit(fields: EntryFields, after: Values): Promise<void> {
    if (this.record === undefined || this.#store === undefined) return;
    const next = fields.next === END ? null : fields.next;
    const entry: CheckpointEntry = {
      threadId: this.record.threadId,
      seq: this.record.seq + 1,
      runId: this.runId,
      kind: fields.kind,
      node: fields.node,
      step: fields.step,
      update: fields.update,
      next,
      status: fields.status ?? (next === null ? 'done' : 'running'),
      error: fields.error ?? null,
      createdAt: Date.now(),
      owner: this.#store.checkpointer.instanceId,
      payload: fields.payload ?? null,
    };
    await this.#store.commit(this.record, entry, after);
  }

  /**
   * Ends the run without reaching END: commits the graph's `closeRun` update (tool calls
   * closed, say) with the end entry. Returns the state after it.
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
    return after;
  }
}
