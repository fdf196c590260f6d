import { AsyncQueue, combineSignals } from '../core/index.ts';
import type { Checkpointer, ThreadInfo } from './checkpoint/types.ts';
import { MissingCheckpointerError } from './errors/missing-checkpointer-error.ts';
import { toMermaid } from './mermaid.ts';
import { type RunStart, runGraph } from './run-graph.ts';
import type { StateOf, StateSchema, UpdateOf } from './state.ts';
import { type ThreadQueue, threadQueueFor } from './thread-queue.ts';
import { ThreadStore } from './thread-store.ts';
import type {
  CompileOptions,
  Edge,
  GraphEvent,
  HistoryEntry,
  NodeFunction,
  RunConfig,
  ThreadState,
} from './types.ts';

const defaultMaxSteps = 15;
const defaultCacheSize = 1000;

/**
 * A validated, runnable graph. Runs on one thread are serialized in arrival order
 * (none lost, none interleaved); runs on different threads proceed concurrently.
 */
export class CompiledGraph<Schema extends StateSchema, Context = unknown> {
  readonly schema: Schema;
  readonly nodes: ReadonlyMap<string, NodeFunction<Schema, Context>>;
  readonly edges: ReadonlyMap<string, Edge<Schema>>;
  readonly maxSteps: number;
  readonly errorNode: string | undefined;
  readonly checkpointer: Checkpointer | undefined;
  readonly store: ThreadStore | undefined;
  #queue: ThreadQueue | undefined;
  #keepRuns: number | undefined;

  constructor(fields: {
    schema: Schema;
    nodes: ReadonlyMap<string, NodeFunction<Schema, Context>>;
    edges: ReadonlyMap<string, Edge<Schema>>;
    options: CompileOptions;
  }) {
    const { options } = fields;
    this.schema = fields.schema;
    this.nodes = fields.nodes;
    this.edges = fields.edges;
    this.maxSteps = options.maxSteps ?? defaultMaxSteps;
    this.errorNode = options.errorNode;
    this.checkpointer = options.checkpointer;
    this.#keepRuns = options.retention?.keepRuns;
    if (options.checkpointer) {
      this.store = new ThreadStore(
        fields.schema,
        options.checkpointer,
        options.cacheSize ?? defaultCacheSize,
      );
      this.#queue = threadQueueFor(options.checkpointer);
    }
  }

  /** Runs the graph on `input` to the end and returns the final state. */
  invoke(input: UpdateOf<Schema>, config: RunConfig<Context> = {}): Promise<StateOf<Schema>> {
    return this.#start({ kind: 'input', input: input as Record<string, unknown> }, config);
  }

  /**
   * Runs the graph and yields its events as they happen. Leaving the loop early
   * (break, or an error in the consumer) cancels the run.
   */
  stream(
    input: UpdateOf<Schema>,
    config: RunConfig<Context> = {},
  ): AsyncIterable<GraphEvent<Schema>> {
    return this.#streamRun({ kind: 'input', input: input as Record<string, unknown> }, config);
  }

  /** Finishes the thread's interrupted run from its last committed step. */
  async resume(
    threadId: string,
    config: Omit<RunConfig<Context>, 'threadId'> = {},
  ): Promise<StateOf<Schema>> {
    this.#requireStore('resume');
    return this.#start({ kind: 'resume' }, { ...config, threadId });
  }

  /** Like `resume`, yielding the events of the rest of the run. */
  streamResume(
    threadId: string,
    config: Omit<RunConfig<Context>, 'threadId'> = {},
  ): AsyncIterable<GraphEvent<Schema>> {
    this.#requireStore('resume');
    return this.#streamRun({ kind: 'resume' }, { ...config, threadId });
  }

  /** Marks the thread's interrupted run as failed, so new runs may start; false when none was pending. */
  async abandon(threadId: string, reason = 'abandoned after an interruption'): Promise<boolean> {
    const store = this.#requireStore('abandon');
    return (this.#queue as ThreadQueue).run(threadId, async () => {
      const record = await store.load(threadId);
      const last = record.last;
      if (last === null || last.status !== 'running') return false;
      await store.commit(
        record,
        {
          threadId,
          seq: record.seq + 1,
          runId: last.runId,
          kind: 'end',
          node: null,
          step: last.step,
          update: null,
          next: null,
          status: 'failed',
          error: { code: 'run_abandoned', message: reason },
          createdAt: Date.now(),
        },
        record.values,
      );
      return true;
    });
  }

  /** Threads whose last run was interrupted (the process died mid-run). */
  async pendingRuns(): Promise<ThreadInfo[]> {
    return this.#requireStore('pendingRuns').checkpointer.listThreads({ status: 'running' });
  }

  /** The thread's current state, or undefined when the thread does not exist. */
  async getState(threadId: string): Promise<ThreadState<Schema> | undefined> {
    const record = await this.#requireStore('getState').load(threadId);
    if (record.last === null) return undefined;
    return {
      threadId,
      values: record.values as StateOf<Schema>,
      next: record.last.next,
      status: record.last.status,
      runId: record.last.runId,
      seq: record.seq,
      updatedAt: record.last.createdAt,
    };
  }

  /** Every kept step of the thread, oldest first, with the state after each. */
  async history(threadId: string): Promise<HistoryEntry<Schema>[]> {
    const store = this.#requireStore('history');
    const log = await store.checkpointer.read(threadId, 0);
    return Array.from(store.replay(log), ({ entry, values }) => ({
      seq: entry.seq,
      runId: entry.runId,
      step: entry.step,
      kind: entry.kind,
      node: entry.node,
      update: entry.update,
      next: entry.next,
      status: entry.status,
      error: entry.error,
      values: values as StateOf<Schema>,
      createdAt: entry.createdAt,
    }));
  }

  /** Deletes the thread, after any run queued on it has finished. */
  async deleteThread(threadId: string): Promise<void> {
    const store = this.#requireStore('deleteThread');
    return (this.#queue as ThreadQueue).run(threadId, async () => {
      await store.checkpointer.deleteThread(threadId);
      store.forget(threadId);
    });
  }

  /** The graph as a Mermaid flowchart. */
  toMermaid(): string {
    return toMermaid(this.nodes.keys(), this.edges);
  }

  #start(start: RunStart, config: RunConfig<Context>): Promise<StateOf<Schema>> {
    const threadId = config.threadId;
    if (this.store === undefined || threadId === undefined) {
      return runGraph(this as never, start, config) as Promise<StateOf<Schema>>;
    }
    return (this.#queue as ThreadQueue).run(threadId, async () => {
      try {
        return (await runGraph(this as never, start, config)) as StateOf<Schema>;
      } finally {
        // A failed compaction loses nothing (the full history is still there) and is
        // tried again after the next run, so it never fails the run itself.
        if (this.#keepRuns !== undefined)
          await this.#compact(threadId, this.#keepRuns).catch(() => {});
      }
    });
  }

  #streamRun(start: RunStart, config: RunConfig<Context>): AsyncIterable<GraphEvent<Schema>> {
    const controller = new AbortController();
    const events = new AsyncQueue<GraphEvent<Schema>>(() =>
      controller.abort(new Error('the stream consumer stopped reading')),
    );
    const outer = config.onEvent;
    this.#start(start, {
      ...config,
      signal: combineSignals(config.signal, controller.signal),
      onEvent: (event) => {
        outer?.(event);
        events.push(event as GraphEvent<Schema>);
      },
    }).then(
      () => events.close(),
      (error: unknown) => events.fail(error),
    );
    return events;
  }

  /** Folds history older than the last `keepRuns` runs into a snapshot, every `keepRuns` runs. */
  async #compact(threadId: string, keepRuns: number): Promise<void> {
    const store = this.store as ThreadStore;
    const record = await store.load(threadId);
    if (record.runStarts.length <= keepRuns * 2 || record.last?.status === 'running') return;
    const firstKept = record.runStarts[record.runStarts.length - keepRuns] as number;
    const seq = firstKept - 1;
    const values = await store.valuesAt(threadId, seq);
    await store.checkpointer.compact(threadId, { seq, values, createdAt: Date.now() });
    record.runStarts = record.runStarts.slice(-keepRuns);
  }

  #requireStore(operation: string): ThreadStore {
    if (this.store === undefined) throw new MissingCheckpointerError({ operation });
    return this.store;
  }
}
