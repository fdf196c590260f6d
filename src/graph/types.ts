import type {
  Checkpointer,
  EntryKind,
  EntryPayload,
  PendingInterrupt,
  RunStatus,
} from './checkpoint/types.ts';
import type { InterruptOutcome, ResumeInfo } from './interrupt.ts';
import type { Send } from './send.ts';
import type { StateOf, StateSchema, UpdateOf } from './state.ts';

/** The name of the virtual node every run starts from. */
export const START = '__start__';
/** The name of the virtual node that ends a run. */
export const END = '__end__';

/**
 * How much a run pays for durability: `sync` commits each entry before the run goes on,
 * `async` commits while the run goes on, `exit` commits every entry when the run ends.
 */
export type Durability = 'sync' | 'async' | 'exit';

/** The durability modes, for validation. */
export const durabilityModes: readonly Durability[] = ['sync', 'async', 'exit'];

/** What a node receives besides the state. */
export interface NodeContext<Context = unknown> {
  readonly threadId: string | undefined;
  readonly runId: string;
  /** The run's super-step this task belongs to, numbered from 1 (tasks run together share it). */
  readonly step: number;
  /** Fires when the run is cancelled; long nodes should pass it on or check it. */
  readonly signal: AbortSignal;
  /** Whatever the caller passed as `context` (models, tools, settings). */
  readonly context: Context;
  /** Set when the runtime routed here because of an error (recursion limit, failed node). */
  readonly error: Error | undefined;
  /** Set when this node paused the run and the run now resumes with answers (see `interrupt`). */
  readonly resume: ResumeInfo | undefined;
  /** Sends a custom stream event (token deltas, tool progress) to whoever streams the run. */
  emit(name: string, data: unknown): void;
}

/** A node: reads the state, returns the fields it changes (or nothing). */
export type NodeFunction<Schema extends StateSchema, Context = unknown> = (
  state: StateOf<Schema>,
  context: NodeContext<Context>,
) => NodeResult<Schema> | Promise<NodeResult<Schema>>;

/** What a node may return: an update, nothing when it changes nothing, or an interrupt. */
export type NodeResult<Schema extends StateSchema> =
  | UpdateOf<Schema>
  | InterruptOutcome<UpdateOf<Schema>>
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: lets nodes end without a return statement
  | void;

/**
 * A conditional edge's router: reads the state, returns one of its declared destinations,
 * several of them (run together in the next super-step, in this order), or `send`s.
 */
export type RouterFunction<Schema extends StateSchema> = (
  state: StateOf<Schema>,
) => string | Send | ReadonlyArray<string | Send>;

/** An edge as compiled: a fixed destination, or a router with its declared destinations. */
export type Edge<Schema extends StateSchema> =
  | { kind: 'plain'; to: string }
  | { kind: 'conditional'; router: RouterFunction<Schema>; destinations: readonly string[] };

/** A join (`addEdge(['a', 'b'], 'c')`): `to` runs once after every source finished. */
export interface Join {
  sources: readonly string[];
  to: string;
}

/**
 * Events a streamed run yields, in order: run-start, then node-start / custom / node-end
 * per step (or interrupt, when a node pauses the run), then final. Events from inside a
 * subgraph carry `path`: the subgraph's node in this graph, then the nodes inside it down
 * to the one the event is about (`["research", "search"]`); `node` and `step` are that
 * inner node's and its own run's. Events of this graph's own nodes have no `path`.
 */
export type GraphEvent<Schema extends StateSchema> =
  | { type: 'run-start'; threadId: string | undefined; runId: string; resumed: boolean }
  | { type: 'node-start'; node: string; step: number; path?: string[] }
  | { type: 'custom'; node: string; name: string; data: unknown; path?: string[] }
  | {
      type: 'node-end';
      node: string;
      step: number;
      update: Partial<StateOf<Schema>> | undefined;
      path?: string[];
    }
  | {
      type: 'interrupt';
      node: string;
      step: number;
      interrupts: PendingInterrupt[];
      path?: string[];
    }
  | {
      type: 'final';
      threadId: string | undefined;
      runId: string;
      values: StateOf<Schema>;
      steps: number;
      status: 'done' | 'interrupted';
      interrupts: PendingInterrupt[];
    };

/** How a run ended: it reached END, or a node paused it with questions. */
export interface RunResult<Schema extends StateSchema> {
  values: StateOf<Schema>;
  runId: string;
  status: 'done' | 'interrupted';
  /** The open questions when the run is paused, else empty. */
  interrupts: PendingInterrupt[];
}

/** Per-run options. */
export interface RunConfig<Context = unknown> {
  /** The conversation the run belongs to; needed to keep state between runs. */
  threadId?: string;
  /** Cancels the run between steps, and is handed to nodes. */
  signal?: AbortSignal;
  /** Overrides the compiled cap on super-steps for this run. */
  maxSteps?: number;
  /** Overrides the compiled durability for this run (`sync`, `async` or `exit`). */
  durability?: Durability;
  /** Passed to every node as `context.context`. */
  context?: Context;
  /** Receives every event of the run as it happens (what `stream` yields). */
  onEvent?: (event: GraphEvent<StateSchema>) => void;
  /**
   * A new run on a thread whose last run was interrupted by its process dying: `throw`
   * (default) refuses with PendingRunError; `abandon` ends that run as failed (with
   * `closeRun`'s update) and starts. A run still going in a live process is always refused.
   */
  onPendingRun?: 'throw' | 'abandon';
  /**
   * A step recorded after the run's last node when the run reaches END (it is not run):
   * `node` names it in the history, `update` is applied to the fields the schema has, and
   * other fields are kept in the history only. Undefined: no step. For what acted around
   * the graph's nodes (the guardrails, say).
   */
  closingStep?: (
    values: Record<string, unknown>,
  ) => ClosingStep | undefined | Promise<ClosingStep | undefined>;
  /** Records the input and the closing step only: no node of the graph runs. */
  recordOnly?: boolean;
  /**
   * The id a new run takes (default a new one): a request that runs several graphs on its
   * threads gives them all its own id. A resumed run keeps the id it paused with.
   */
  runId?: string;
}

/** A step a run records at its end without running it (`RunConfig.closingStep`). */
export interface ClosingStep {
  node: string;
  update: Record<string, unknown>;
}

/** Compile options. */
export interface CompileOptions {
  /** Names the graph in traces (`invoke_workflow <name>` spans). */
  name?: string;
  checkpointer?: Checkpointer;
  /** Cap on super-steps per run (default 15); the tasks of one super-step count once. */
  maxSteps?: number;
  /** How many tasks of one super-step run at once (default: all). */
  maxConcurrency?: number;
  /**
   * `sync` (default): each super-step is committed before the next starts; `async`: it is
   * committed while the next runs; `exit`: the run's entries are committed when it ends.
   * In every mode a run returns only once all its writes are committed.
   */
  durability?: Durability;
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
  /**
   * The update that leaves the state valid when a run ends without reaching END (it
   * failed, was cancelled, or was abandoned after a crash); committed with the run's end.
   * The agents close tool calls that got no result with an error result, for example.
   */
  closeRun?: (
    values: Record<string, unknown>,
    ending: RunEnding,
  ) => Record<string, unknown> | undefined;
}

/** Why a run ended without reaching END. */
export interface RunEnding {
  status: RunStatus;
  error: { code: string; message: string };
  /** What stopped a cancelled run (its signal's reason; a `RunSupersededError` when a newer run took its place). */
  cause?: unknown;
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
  /** The questions the paused run waits on (status `interrupted`), else empty. */
  interrupts: PendingInterrupt[];
  /** The instance that wrote the last entry. */
  owner: string | null;
  /** The thread and step this thread was forked from (absent when it is not a fork). */
  forkedFrom?: { threadId: string; step: number };
}

/** One step of a thread's history with the state after it. */
export interface HistoryEntry<Schema extends StateSchema> {
  seq: number;
  runId: string;
  /** The entry's number in the thread: 0, 1, 2, … across runs (a run's input included); what `fork` takes. */
  step: number;
  /** The run's super-step the entry belongs to (0 for a run's input). */
  superstep: number;
  kind: EntryKind;
  node: string | null;
  update: Record<string, unknown> | null;
  next: string | null;
  status: RunStatus;
  error: { code: string; message: string } | null;
  payload: EntryPayload | null;
  values: StateOf<Schema>;
  createdAt: number;
  /**
   * On an entry of a subgraph: the subgraph's node in this graph, then the inner node
   * (`["research", "search"]`; the subgraph's input entry has the node alone). Such an
   * entry's `step` numbers it in the subgraph's own history, its `values` are the
   * subgraph's state, and it is not a fork point. Absent on this graph's own entries.
   */
  path?: string[];
}

/** What a subgraph's task is handed of the run it is a task of, besides its NodeContext. */
export interface TaskRuntime {
  /** The task's place in its super-step. */
  task: number;
  /** The checkpointer the run commits to (when it has both a checkpointer and a thread). */
  checkpointer: Checkpointer | undefined;
  durability: Durability;
  onEvent: ((event: GraphEvent<StateSchema>) => void) | undefined;
}

/** A graph as declared: its nodes, edges, joins and the nodes that are graphs. */
export interface GraphShape {
  readonly nodes: ReadonlyMap<string, unknown>;
  readonly edges: ReadonlyMap<string, readonly Edge<StateSchema>[]>;
  readonly joins: readonly Join[];
  readonly subgraphs: ReadonlyMap<string, ChildGraph>;
}

/**
 * A graph used as a node of another, as the runtime below the builder sees it: each task
 * of its node runs it once, on a thread of its own in the parent run's checkpointer.
 */
export interface ChildGraph {
  /** Its node's name in the parent graph. */
  readonly name: string;
  /** Its own declaration (drawn inside its node). */
  readonly graph: GraphShape;
  /** Runs it as one task of the parent's run; its updates to the shared channels come out. */
  runTask(
    state: Record<string, unknown>,
    context: NodeContext<unknown>,
    runtime: TaskRuntime,
  ): Promise<Record<string, unknown> | InterruptOutcome>;
  /** Its threads in `checkpointer`: what showing, ending and deleting its runs needs. */
  bound(checkpointer: Checkpointer): ChildThreads;
}

/** What the parent's runtime does with the threads of a child graph's runs. */
export interface ChildThreads {
  history(threadId: string): Promise<HistoryEntry<StateSchema>[]>;
  /** Ends the thread's unfinished run (see `CompiledGraph.abandon`); false when none was. */
  abandon(threadId: string, reason?: string): Promise<boolean>;
}
