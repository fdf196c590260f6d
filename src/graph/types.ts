import type { Checkpointer, EntryKind, RunStatus } from './checkpoint/types.ts';
import type { StateOf, StateSchema, UpdateOf } from './state.ts';

/** The name of the virtual node every run starts from. */
export const START = '__start__';
/** The name of the virtual node that ends a run. */
export const END = '__end__';

/** What a node receives besides the state. */
export interface NodeContext<Context = unknown> {
  readonly threadId: string | undefined;
  readonly runId: string;
  /** Node executions of this run so far, this one included. */
  readonly step: number;
  /** Fires when the run is cancelled; long nodes should pass it on or check it. */
  readonly signal: AbortSignal;
  /** Whatever the caller passed as `context` (models, tools, settings). */
  readonly context: Context;
  /** Set when the runtime routed here because of an error (recursion limit, failed node). */
  readonly error: Error | undefined;
  /** Sends a custom stream event (token deltas, tool progress) to whoever streams the run. */
  emit(name: string, data: unknown): void;
}

/** A node: reads the state, returns the fields it changes (or nothing). */
export type NodeFunction<Schema extends StateSchema, Context = unknown> = (
  state: StateOf<Schema>,
  context: NodeContext<Context>,
) => NodeResult<Schema> | Promise<NodeResult<Schema>>;

/** What a node may return: an update, or nothing when it changes nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: lets nodes end without a return statement
export type NodeResult<Schema extends StateSchema> = UpdateOf<Schema> | undefined | void;

/** A conditional edge's router: reads the state, returns one of its declared destinations. */
export type RouterFunction<Schema extends StateSchema> = (state: StateOf<Schema>) => string;

/** An edge as compiled: a fixed destination, or a router with its declared destinations. */
export type Edge<Schema extends StateSchema> =
  | { kind: 'plain'; to: string }
  | { kind: 'conditional'; router: RouterFunction<Schema>; destinations: readonly string[] };

/** Events a streamed run yields, in order: run-start, then node-start / custom / node-end per step, then final. */
export type GraphEvent<Schema extends StateSchema> =
  | { type: 'run-start'; threadId: string | undefined; runId: string; resumed: boolean }
  | { type: 'node-start'; node: string; step: number }
  | { type: 'custom'; node: string; name: string; data: unknown }
  | { type: 'node-end'; node: string; step: number; update: Partial<StateOf<Schema>> | undefined }
  | {
      type: 'final';
      threadId: string | undefined;
      runId: string;
      values: StateOf<Schema>;
      steps: number;
    };

/** Per-run options. */
export interface RunConfig<Context = unknown> {
  /** The conversation the run belongs to; needed to keep state between runs. */
  threadId?: string;
  /** Cancels the run between steps, and is handed to nodes. */
  signal?: AbortSignal;
  /** Overrides the compiled cap on node executions for this run. */
  maxSteps?: number;
  /** Passed to every node as `context.context`. */
  context?: Context;
  /** Receives every event of the run as it happens (what `stream` yields). */
  onEvent?: (event: GraphEvent<StateSchema>) => void;
}

/** Compile options. */
export interface CompileOptions {
  checkpointer?: Checkpointer;
  /** Cap on node executions per run (default 15). */
  maxSteps?: number;
  /**
   * A node the run is routed to, with `context.error` set, when it hits the step cap or
   * a node throws. Without one, those errors are thrown to the caller.
   */
  errorNode?: string;
  /**
   * Keep the step history of the last `keepRuns` runs of each thread; older steps are
   * folded into one snapshot (state is kept in full, only history is shortened).
   */
  retention?: { keepRuns: number };
  /** How many threads' latest state to keep in memory (default 1000). */
  cacheSize?: number;
}

/** A thread's state as `getState` returns it. */
export interface ThreadState<Schema extends StateSchema> {
  threadId: string;
  values: StateOf<Schema>;
  /** The node the last run would run next; null when it ended. */
  next: string | null;
  status: RunStatus;
  runId: string;
  seq: number;
  updatedAt: number;
}

/** One step of a thread's history with the state after it. */
export interface HistoryEntry<Schema extends StateSchema> {
  seq: number;
  runId: string;
  /** Node executions of the run up to this entry. */
  step: number;
  kind: EntryKind;
  node: string | null;
  update: Record<string, unknown> | null;
  next: string | null;
  status: RunStatus;
  error: { code: string; message: string } | null;
  values: StateOf<Schema>;
  createdAt: number;
}
