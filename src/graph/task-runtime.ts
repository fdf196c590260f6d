import type { Checkpointer } from './checkpoint/types.ts';
import type { Durability } from './run-writer.ts';
import type { StateSchema } from './state.ts';
import type { GraphEvent, NodeContext } from './types.ts';

/** What a subgraph node needs of the run it is a task of, besides its NodeContext. */
export interface TaskRuntime {
  /** The task's place in its super-step. */
  task: number;
  /** The checkpointer the run commits to (when it has both a checkpointer and a thread). */
  checkpointer: Checkpointer | undefined;
  durability: Durability;
  onEvent: ((event: GraphEvent<StateSchema>) => void) | undefined;
}

const runtimes = new WeakMap<NodeContext<unknown>, TaskRuntime>();

/** Ties a task's runtime to its node context (only graphs with subgraphs need it). */
export function attachTaskRuntime(context: NodeContext<unknown>, runtime: TaskRuntime): void {
  runtimes.set(context, runtime);
}

/** The runtime of the task a node context belongs to, when the run attached one. */
export function taskRuntimeOf(context: NodeContext<unknown>): TaskRuntime | undefined {
  return runtimes.get(context);
}
