import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import type { CheckpointEntry, Checkpointer, PendingInterrupt } from './checkpoint/types.ts';
import type { CompiledGraph } from './compiled-graph.ts';
import { SubgraphUpdateError } from './errors/subgraph-update-error.ts';
import { type InterruptOutcome, interrupt } from './interrupt.ts';
import { subgraphThreadId } from './planning/subgraph-thread-ids.ts';
import { type Superstep, superstepAfter, updatesOfEntry } from './planning/superstep.ts';
import type { StateSchema } from './state.ts';
import type {
  ChildGraph,
  GraphEvent,
  NodeContext,
  NodeFunction,
  RunConfig,
  RunResult,
  TaskRuntime,
} from './types.ts';

type Values = Record<string, unknown>;
type AnyCompiledGraph = CompiledGraph<StateSchema, unknown>;

/** How many subgraph threads a bound subgraph keeps in memory: each serves one task. */
const subgraphCacheSize = 64;

/**
 * A graph used as a node of another. Each time the node runs, the subgraph runs once on a
 * thread of its own, named after the parent's thread, run, super-step and task
 * (`<thread>#<node>@<run>.<step>.<task>`), in the parent's checkpointer: a crash or an
 * interrupt inside it resumes where it stopped. Channels of both graphs with the same name
 * are passed in; the subgraph's updates to them come out as the node's update.
 */
export class Subgraph implements ChildGraph {
  readonly name: string;
  /** The subgraph as compiled on its own (its checkpointer, if any, is not used). */
  readonly graph: AnyCompiledGraph;
  /** The channels both graphs have. */
  readonly shared: readonly string[];
  readonly #parentSchema: StateSchema;
  readonly #bound = new WeakMap<Checkpointer, AnyCompiledGraph>();

  constructor(name: string, graph: AnyCompiledGraph, parentSchema: StateSchema) {
    this.name = name;
    this.graph = graph;
    this.#parentSchema = parentSchema;
    this.shared = Object.keys(graph.schema).filter((key) => key in parentSchema);
  }

  /**
   * The node that runs the subgraph called as a plain node: on a thread of its own, kept
   * in memory for the call. The parent's runtime calls `runTask` instead.
   */
  readonly node: NodeFunction<StateSchema, unknown> = (state, context) =>
    this.#run(state as Values, context, undefined);

  /**
   * Runs the subgraph as one task of the parent's run: on the thread
   * `<thread>#<node>@<run>.<step>.<task>` in the run's checkpointer when the run has one
   * and a thread, else on one kept in memory for the call.
   */
  runTask(
    state: Values,
    context: NodeContext<unknown>,
    runtime: TaskRuntime,
  ): Promise<Values | InterruptOutcome> {
    return this.#run(state, context, runtime);
  }

  /** The subgraph committing to `checkpointer` (one per checkpointer, made once). */
  bound(checkpointer: Checkpointer): AnyCompiledGraph {
    let graph = this.#bound.get(checkpointer);
    if (graph === undefined) {
      graph = this.graph.withCheckpointer(checkpointer, subgraphCacheSize);
      this.#bound.set(checkpointer, graph);
    }
    return graph;
  }

  async #run(
    state: Values,
    context: NodeContext<unknown>,
    runtime: TaskRuntime | undefined,
  ): Promise<Values | InterruptOutcome> {
    const durable = runtime?.checkpointer !== undefined && context.threadId !== undefined;
    // A run without a thread still runs the subgraph on one, kept in memory for the call.
    const checkpointer = durable
      ? (runtime.checkpointer as Checkpointer)
      : new MemoryCheckpointer();
    const threadId = durable
      ? subgraphThreadId(
          context.threadId as string,
          this.name,
          context.runId,
          context.step,
          runtime.task,
        )
      : 'subgraph';
    const graph = this.bound(checkpointer);
    const onEvent = runtime?.onEvent;
    const config: RunConfig<unknown> = {
      threadId,
      signal: context.signal,
      context: context.context,
      ...(runtime ? { durability: runtime.durability } : {}),
      ...(onEvent ? { onEvent: (event) => this.#forward(event, onEvent) } : {}),
    };
    try {
      const result = await this.#continue(graph, threadId, state, context, config);
      if (result.status === 'interrupted') {
        return interrupt(result.interrupts.map((pending) => this.#passOn(pending)));
      }
      return this.#updateOf(await checkpointer.read(threadId, 0));
    } finally {
      if (!durable) await checkpointer.close();
    }
  }

  /**
   * Runs the subgraph on its thread, or continues it: with the parent's answers to its
   * questions, or after a crash. Still interrupted, with its open questions, when no answer
   * was for them.
   */
  async #continue(
    graph: AnyCompiledGraph,
    threadId: string,
    state: Values,
    context: NodeContext<unknown>,
    config: RunConfig<unknown>,
  ): Promise<Pick<RunResult<StateSchema>, 'status' | 'interrupts'>> {
    const current = await graph.getState(threadId);
    if (current === undefined || ['error', 'cancelled', 'failed'].includes(current.status)) {
      const input: Values = {};
      for (const key of this.shared) if (state[key] !== undefined) input[key] = state[key];
      return graph.run(input, config);
    }
    if (current.status === 'done') return { status: 'done', interrupts: [] };
    const { threadId: _thread, ...rest } = config;
    if (current.status === 'running') return graph.resumeRun(threadId, rest);
    const open = new Set(current.interrupts.map((pending) => pending.id));
    const answers = Object.fromEntries(
      Object.entries(context.resume?.answers ?? {}).filter(([id]) => open.has(id)),
    );
    if (Object.keys(answers).length === 0) {
      return { status: 'interrupted', interrupts: current.interrupts };
    }
    return graph.resumeRun(threadId, { ...rest, answers });
  }

  /** A question of the subgraph asked again by its node, under the same id. */
  #passOn(pending: PendingInterrupt) {
    return {
      id: pending.id,
      key: pending.key,
      value: pending.value,
      createdAt: pending.createdAt,
      path: [this.name, ...(pending.path ?? [pending.node])],
    };
  }

  /** Passes an event from inside the subgraph on to the parent's listener, with its path. */
  #forward(
    event: GraphEvent<StateSchema>,
    onEvent: (event: GraphEvent<StateSchema>) => void,
  ): void {
    if (event.type === 'run-start' || event.type === 'final') return;
    onEvent({ ...event, path: [this.name, ...(event.path ?? [event.node])] });
  }

  /** The subgraph's last run's updates to the shared channels, as one update. */
  #updateOf(log: { entries: readonly CheckpointEntry[] }): Values {
    let updates: Values[] = [];
    let superstep: Superstep | null = null;
    for (const entry of log.entries) {
      // The input is what the parent passed in: only what came after it comes out.
      if (entry.kind === 'input') updates = [];
      else updates.push(...updatesOfEntry(superstep, entry));
      superstep = superstepAfter(superstep, entry);
    }
    return combineUpdates(this.#parentSchema, this.shared, updates, this.name);
  }
}

/**
 * Several updates as one, channel by channel, so that the parent's reducer applied once
 * gives what applying each in turn would: the last for `replace`, the items in order for
 * `append` and `messages`, the sum for `increment`. A channel with a reducer of its own
 * takes one update only.
 */
export function combineUpdates(
  schema: StateSchema,
  keys: readonly string[],
  updates: readonly Values[],
  node: string,
): Values {
  const combined: Values = {};
  for (const key of keys) {
    const values = updates.flatMap((update) => (update[key] === undefined ? [] : [update[key]]));
    if (values.length === 0) continue;
    if (values.length === 1) {
      combined[key] = values[0];
      continue;
    }
    switch (schema[key]?.kind) {
      case 'replace':
        combined[key] = values.at(-1);
        break;
      case 'append':
      case 'messages':
        combined[key] = values.flatMap((value) => (Array.isArray(value) ? value : [value]));
        break;
      case 'increment':
        combined[key] = values.reduce((sum: number, value) => sum + (value as number), 0);
        break;
      default:
        throw new SubgraphUpdateError({ node, channel: key, updates: values.length });
    }
  }
  return combined;
}
