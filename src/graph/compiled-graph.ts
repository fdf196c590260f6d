import { AsyncQueue, combineSignals, createId } from '../core/index.ts';
import { runsElsewhere } from './checkpoint/host-identity.ts';
import type { Checkpointer, ThreadInfo } from './checkpoint/types.ts';
import { MissingCheckpointerError } from './errors/missing-checkpointer-error.ts';
import { endRun } from './execution/end-run.ts';
import { type RunStart, runGraph } from './execution/run-graph.ts';
import { type ThreadQueue, threadQueueFor } from './execution/thread-queue.ts';
import { toMermaid } from './planning/mermaid.ts';
import type { StateOf, StateSchema, UpdateOf } from './state.ts';
import { type ForkOptions, forkThread, stepOf } from './storage/fork-thread.ts';
import { RunWriter } from './storage/run-writer.ts';
import { deleteSubgraphThreads, withSubgraphEntries } from './storage/subgraph-threads.ts';
import { ThreadStore } from './storage/thread-store.ts';
import { updateThread } from './storage/update-thread.ts';
import type {
  ChildGraph,
  CompileOptions,
  Durability,
  Edge,
  GraphEvent,
  HistoryEntry,
  Join,
  NodeFunction,
  RunConfig,
  RunEnding,
  RunResult,
  ThreadState,
} from './types.ts';

/** Options of `resume`: the answers that continue a paused run, by interrupt id. */
export type ResumeConfig<Context> = Omit<RunConfig<Context>, 'threadId'> & {
  answers?: Record<string, unknown>;
};

const defaultMaxSteps = 15;
const defaultCacheSize = 1000;

/**
 * A validated, runnable graph. Runs on one thread are serialized in arrival order
 * (none lost, none interleaved); runs on different threads proceed concurrently.
 */
export class CompiledGraph<Schema extends StateSchema, Context = unknown> {
  /** The graph's name in traces, when it was given one. */
  readonly name: string | undefined;
  readonly schema: Schema;
  readonly nodes: ReadonlyMap<string, NodeFunction<Schema, Context>>;
  readonly edges: ReadonlyMap<string, readonly Edge<Schema>[]>;
  readonly joins: readonly Join[];
  /** The nodes that are graphs, by name. */
  readonly subgraphs: ReadonlyMap<string, ChildGraph>;
  readonly maxSteps: number;
  readonly maxConcurrency: number | undefined;
  readonly durability: Durability;
  readonly errorNode: string | undefined;
  readonly checkpointer: Checkpointer | undefined;
  readonly store: ThreadStore | undefined;
  readonly closeRun:
    | ((values: Record<string, unknown>, ending: RunEnding) => Record<string, unknown> | undefined)
    | undefined;
  #queue: ThreadQueue | undefined;
  #keepRuns: number | undefined;
  #options: CompileOptions;

  constructor(fields: {
    schema: Schema;
    nodes: ReadonlyMap<string, NodeFunction<Schema, Context>>;
    edges: ReadonlyMap<string, readonly Edge<Schema>[]>;
    joins: readonly Join[];
    subgraphs?: ReadonlyMap<string, ChildGraph>;
    options: CompileOptions;
  }) {
    const { options } = fields;
    this.#options = options;
    this.subgraphs = fields.subgraphs ?? new Map();
    this.name = options.name;
    this.schema = fields.schema;
    this.nodes = fields.nodes;
    this.edges = fields.edges;
    this.joins = fields.joins;
    this.maxSteps = options.maxSteps ?? defaultMaxSteps;
    this.maxConcurrency = options.maxConcurrency;
    this.durability = options.durability ?? 'sync';
    this.errorNode = options.errorNode;
    this.checkpointer = options.checkpointer;
    this.closeRun = options.closeRun;
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

  /** Runs the graph on `input` to the end (or to an interrupt) and returns the final state. */
  async invoke(input: UpdateOf<Schema>, config: RunConfig<Context> = {}): Promise<StateOf<Schema>> {
    return (await this.run(input, config)).values;
  }

  /** Like `invoke`, saying how the run ended: done, or interrupted with its open questions. */
  run(input: UpdateOf<Schema>, config: RunConfig<Context> = {}): Promise<RunResult<Schema>> {
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

  /**
   * Continues the thread's run from its last committed step: a run paused by an interrupt
   * (with `answers`, by interrupt id — at least one), or a run its process left behind
   * when it died. Returns the final state.
   */
  async resume(threadId: string, config: ResumeConfig<Context> = {}): Promise<StateOf<Schema>> {
    return (await this.resumeRun(threadId, config)).values;
  }

  /** Like `resume`, saying how the run ended. */
  resumeRun(threadId: string, config: ResumeConfig<Context> = {}): Promise<RunResult<Schema>> {
    this.#requireStore('resume');
    const { answers, ...rest } = config;
    return this.#start({ kind: 'resume', ...(answers ? { answers } : {}) }, { ...rest, threadId });
  }

  /** Like `resume`, yielding the events of the rest of the run. */
  streamResume(
    threadId: string,
    config: ResumeConfig<Context> = {},
  ): AsyncIterable<GraphEvent<Schema>> {
    this.#requireStore('resume');
    const { answers, ...rest } = config;
    return this.#streamRun(
      { kind: 'resume', ...(answers ? { answers } : {}) },
      { ...rest, threadId },
    );
  }

  /**
   * Ends the thread's unfinished run so new runs may start: one its process left behind
   * (status `failed`), or one paused on questions (status `cancelled`). The graph's
   * `closeRun` update is committed with it, and the subgraph runs it was inside end too.
   * False when no run was unfinished; a run still going in another live process is not
   * touched (false too).
   */
  async abandon(
    threadId: string,
    reason = 'abandoned after an interruption',
    /** Why: a `RunSupersededError` when a newer run takes its place (with rollback: removed). */
    cause?: unknown,
    /**
     * An instance whose running run counts as left behind though it is alive: its caller
     * knows that instance no longer runs it (it holds no place in the session's line).
     */
    leftBy?: string,
  ): Promise<boolean> {
    const store = this.#requireStore('abandon');
    return (this.#queue as ThreadQueue).run(threadId, async () => {
      const record = await store.load(threadId);
      const last = record.last;
      if (last === null || (last.status !== 'running' && last.status !== 'interrupted')) {
        return false;
      }
      if (
        last.status === 'running' &&
        (leftBy === undefined || last.owner !== leftBy) &&
        (await runsElsewhere(store.checkpointer, last.owner))
      ) {
        return false;
      }
      const status = last.status === 'interrupted' ? 'cancelled' : 'failed';
      const code = last.status === 'interrupted' ? 'run_cancelled' : 'run_abandoned';
      await endRun(this, new RunWriter(store, record, last.runId), record.values, last.step, {
        status,
        error: { code, message: reason },
        ...(cause === undefined ? {} : { cause }),
      });
      return true;
    });
  }

  /** Threads whose last run has not ended: still going, or left behind by a process that died. */
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
      interrupts:
        record.last.status === 'interrupted' ? (record.last.payload?.interrupts ?? []) : [],
      owner: record.last.owner,
      ...(record.forkedFrom ? { forkedFrom: record.forkedFrom } : {}),
    };
  }

  /**
   * A new thread from the state after step `atStep` of this one (see `history`), with
   * `update` applied; the original is not touched. A fork taken at the end of a run is a
   * finished thread that new input continues; one taken inside a run is that run paused
   * there: `resume(newThreadId)` re-runs the nodes after it, asking their questions again.
   */
  async fork(threadId: string, options: ForkOptions): Promise<{ threadId: string }> {
    const store = this.#requireStore('fork');
    const newThreadId = options.threadId ?? createId();
    await (this.#queue as ThreadQueue).run(newThreadId, () =>
      forkThread(store, this.schema, threadId, options, newThreadId),
    );
    return { threadId: newThreadId };
  }

  /**
   * Applies `update` to the thread's state as an entry of its own, running no node (the
   * thread is made when it has none); for a thread with no run going or paused. A run that
   * started meanwhile wins: `CheckpointConflictError`, nothing written. `options.asNode`
   * names the entry in `history` (its `node`), as if that node had written the update.
   */
  async updateState(
    threadId: string,
    update: UpdateOf<Schema>,
    options: { asNode?: string } = {},
  ): Promise<void> {
    const store = this.#requireStore('updateState');
    const values = update as Record<string, unknown>;
    await (this.#queue as ThreadQueue).run(threadId, () =>
      updateThread(store, this.schema, threadId, values, options.asNode ?? null),
    );
  }

  /**
   * Every kept step of the thread, oldest first, with the state after each. The steps of
   * a subgraph come before the entry of its node, each with its `path`.
   */
  async history(threadId: string): Promise<HistoryEntry<Schema>[]> {
    const store = this.#requireStore('history');
    const log = await store.checkpointer.read(threadId, 0);
    const entries = Array.from(store.replay(log), ({ entry, values }) => ({
      seq: entry.seq,
      runId: entry.runId,
      step: stepOf(entry),
      superstep: entry.step,
      kind: entry.kind,
      node: entry.node,
      update: entry.update,
      next: entry.next,
      status: entry.status,
      error: entry.error,
      payload: entry.payload,
      values: values as StateOf<Schema>,
      createdAt: entry.createdAt,
    }));
    if (this.subgraphs.size === 0) return entries;
    return withSubgraphEntries(threadId, log.entries, entries, this.subgraphs, store.checkpointer);
  }

  /** Deletes the thread, after any run queued on it has finished. */
  async deleteThread(threadId: string): Promise<void> {
    const store = this.#requireStore('deleteThread');
    return (this.#queue as ThreadQueue).run(threadId, async () => {
      await store.checkpointer.deleteThread(threadId);
      store.forget(threadId);
      if (this.subgraphs.size > 0) {
        await deleteSubgraphThreads(threadId, this.subgraphs, store.checkpointer);
      }
    });
  }

  /** The graph as a Mermaid flowchart (a subgraph as a nested block). */
  toMermaid(): string {
    return toMermaid(this.nodes.keys(), this.edges, this.joins, this.subgraphs);
  }

  /**
   * This graph committing to `checkpointer`, without retention: how a subgraph runs on
   * its parent's storage. Used by the runtime; a graph of your own is compiled with one.
   */
  withCheckpointer(checkpointer: Checkpointer, cacheSize: number): CompiledGraph<Schema, Context> {
    const { retention: _retention, ...options } = this.#options;
    return new CompiledGraph({
      schema: this.schema,
      nodes: this.nodes,
      edges: this.edges,
      joins: this.joins,
      subgraphs: this.subgraphs,
      options: { ...options, checkpointer, cacheSize },
    });
  }

  #start(start: RunStart, config: RunConfig<Context>): Promise<RunResult<Schema>> {
    const threadId = config.threadId;
    if (this.store === undefined || threadId === undefined) {
      return runGraph(this as never, start, config) as Promise<RunResult<Schema>>;
    }
    return (this.#queue as ThreadQueue).run(threadId, async () => {
      try {
        return (await runGraph(this as never, start, config)) as RunResult<Schema>;
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
    const unfinished = record.last?.status === 'running' || record.last?.status === 'interrupted';
    if (record.runStarts.length <= keepRuns * 2 || unfinished) return;
    const firstKept = record.runStarts[record.runStarts.length - keepRuns] as number;
    const seq = firstKept - 1;
    const log = await store.checkpointer.read(threadId, 0);
    const values = await store.valuesAt(threadId, seq, log);
    // The runs folded away (whole runs: the first kept entry starts one).
    const folded =
      this.subgraphs.size === 0
        ? undefined
        : new Set(log.entries.filter((entry) => entry.seq <= seq).map((entry) => entry.runId));
    await store.checkpointer.compact(threadId, { seq, values, createdAt: Date.now() });
    record.runStarts = record.runStarts.slice(-keepRuns);
    if (folded !== undefined && folded.size > 0) {
      // The subgraph runs of the folded runs no longer show in any history.
      await deleteSubgraphThreads(threadId, this.subgraphs, store.checkpointer, folded);
    }
  }

  #requireStore(operation: string): ThreadStore {
    if (this.store === undefined) throw new MissingCheckpointerError({ operation });
    return this.store;
  }
}
