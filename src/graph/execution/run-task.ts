import { inSpan, SpanKind } from '../../core/index.ts';
import type { Task } from '../checkpoint/types.ts';
import { InvalidUpdateError } from '../errors/invalid-update-error.ts';
import { NodeFailedError } from '../errors/node-failed-error.ts';
import { type InterruptRequest, isInterrupt } from '../interrupt.ts';
import { prepareUpdate, type StateSchema } from '../state.ts';
import type { ChildGraph, GraphEvent, NodeContext, NodeFunction, TaskRuntime } from '../types.ts';

type Values = Record<string, unknown>;

/** How one task ended: with its prepared update, paused with questions, or failed. */
export type TaskOutcome =
  | { status: 'done'; update: Values | undefined }
  | { status: 'interrupted'; update: Values | undefined; requests: InterruptRequest[] }
  | { status: 'failed'; error: Error; cause: unknown };

/** What running a task needs of its graph. */
export interface TaskGraph {
  schema: StateSchema;
  nodes: ReadonlyMap<string, NodeFunction<StateSchema, unknown>>;
  subgraphs: ReadonlyMap<string, ChildGraph>;
}

/**
 * Runs one task: announces it, calls its node (traced as a `node <name>` span) with its
 * `send` input or the state, and prepares the update it returned. A task of a subgraph's
 * node is handed `runtime`, the part of the run the subgraph runs in.
 */
export async function runTask(
  graph: TaskGraph,
  task: Task,
  values: Values,
  context: NodeContext<unknown>,
  runtime: TaskRuntime | undefined,
  onEvent: ((event: GraphEvent<StateSchema>) => void) | undefined,
): Promise<TaskOutcome> {
  const node = task.node;
  const step = context.step;
  onEvent?.({ type: 'node-start', node, step });
  try {
    const result = inSpan(`node ${node}`, SpanKind.INTERNAL, (nodeSpan) => {
      if (nodeSpan.isRecording()) {
        nodeSpan.setAttributes({ 'yeoul.graph.node': node, 'yeoul.graph.step': step });
      }
      return call(graph, node, (task.input ?? values) as Values, context, runtime);
    });
    const outcome = result instanceof Promise ? await result : result;
    if (isInterrupt(outcome)) {
      const update = prepareUpdate(graph.schema, outcome.update as Values | undefined, node);
      return { status: 'interrupted', update, requests: outcome.requests };
    }
    return { status: 'done', update: prepareUpdate(graph.schema, outcome as Values, node) };
  } catch (cause) {
    const error =
      cause instanceof InvalidUpdateError ? cause : new NodeFailedError({ node, cause });
    return { status: 'failed', error, cause };
  }
}

/** Calls the task's node: a subgraph with the runtime it was handed, any other node as declared. */
function call(
  graph: TaskGraph,
  node: string,
  input: Values,
  context: NodeContext<unknown>,
  runtime: TaskRuntime | undefined,
): unknown {
  const child = runtime === undefined ? undefined : graph.subgraphs.get(node);
  if (child !== undefined) return child.runTask(input, context, runtime as TaskRuntime);
  const run = graph.nodes.get(node) as NodeFunction<StateSchema, unknown>;
  return run(input as never, context);
}
