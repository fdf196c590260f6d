import type { HistoryEntry, StateSchema } from '../../graph/index.ts';
import { toLangGraphUpdate, toLangGraphValues } from './langgraph-messages.ts';

/** One event of a LangGraph run stream, before it is numbered. */
export interface LangGraphEvent {
  event: string;
  data: unknown;
}

/**
 * The subgraph an event comes from, as LangGraph names it: the subgraph nodes from the
 * run's graph down (`["research"]`); empty for the run's own graph.
 */
export type Namespace = readonly string[];

/** An event's name in a namespace: `MODE|NS1|NS2…`, or the mode alone for the run's own graph. */
export function namedIn(mode: string, namespace: Namespace): string {
  return namespace.length === 0 ? mode : `${mode}|${namespace.join('|')}`;
}

/** A node's task id in a run: the run, the subgraph, its super-step and the node. */
function taskIdOf(
  runId: string,
  superstep: number | undefined,
  node: string,
  namespace: Namespace,
): string {
  const inner = namespace.length === 0 ? '' : `${namespace.join('|')}:`;
  return `${runId}:${inner}${superstep ?? 0}:${node}`;
}

/** A checkpoint reference of a thread's step (of a subgraph's run, in its namespace). */
function configOf(threadId: string, step: number, namespace: Namespace) {
  return {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: namespace.join('|'),
      checkpoint_id: String(step),
    },
  };
}

/** `tasks` and `debug` events as a node starts. */
export function taskStartEvents(
  runId: string,
  node: string,
  superstep: number | undefined,
  namespace: Namespace = [],
): LangGraphEvent[] {
  const id = taskIdOf(runId, superstep, node, namespace);
  const task = { id, name: node, input: null, triggers: [] };
  return [
    { event: namedIn('tasks', namespace), data: task },
    {
      event: namedIn('debug', namespace),
      data: {
        type: 'task',
        step: superstep ?? 0,
        timestamp: new Date().toISOString(),
        payload: task,
      },
    },
  ];
}

/** `tasks` and `debug` events as a node's step is stored (its update the task's result). */
export function taskEndEvents(
  runId: string,
  entry: HistoryEntry<StateSchema>,
  namespace: Namespace = [],
): LangGraphEvent[] {
  const node = entry.node ?? entry.kind;
  const result = {
    id: taskIdOf(runId, entry.superstep, node, namespace),
    name: node,
    result: toLangGraphUpdate(entry.update),
    error: entry.error === null ? null : entry.error.code,
    interrupts: [],
  };
  return [
    { event: namedIn('tasks', namespace), data: result },
    {
      event: namedIn('debug', namespace),
      data: {
        type: 'task_result',
        step: entry.superstep,
        timestamp: new Date(entry.createdAt).toISOString(),
        payload: result,
      },
    },
  ];
}

/** What a stored step's checkpoint says of it: the step a state update made, with its writes. */
export interface StepFacts {
  step: number;
  runId: string;
  kind: string;
  node: string | null;
  update: unknown;
}

/**
 * A checkpoint's `metadata`: `source` `input` (a run's input, written by `__start__`),
 * `update` (a state update, written by the node it names: `as_node` or `update`) or `loop`
 * (a node's step), its `writes` by node, `step` and `run_id`.
 */
export function checkpointMetadataOf(entry: StepFacts): Record<string, unknown> {
  const source = entry.kind !== 'input' ? 'loop' : entry.node === null ? 'input' : 'update';
  const writer = source === 'input' ? '__start__' : entry.node;
  const writes =
    writer === null || entry.update === null ? null : { [writer]: toLangGraphUpdate(entry.update) };
  return { source, step: entry.step, writes, run_id: entry.runId };
}

/** `checkpoints` and `debug` events for a stored step (a fork point) of the thread. */
export function checkpointEvents(
  threadId: string,
  entry: HistoryEntry<StateSchema>,
  parentStep: number | undefined,
  namespace: Namespace = [],
): LangGraphEvent[] {
  const checkpoint = {
    values: toLangGraphValues(entry.values),
    next: entry.next === null ? [] : [entry.next],
    tasks: [],
    metadata: checkpointMetadataOf(entry),
    config: configOf(threadId, entry.step, namespace),
    parent_config: parentStep === undefined ? null : configOf(threadId, parentStep, namespace),
  };
  return [
    { event: namedIn('checkpoints', namespace), data: checkpoint },
    {
      event: namedIn('debug', namespace),
      data: {
        type: 'checkpoint',
        step: entry.superstep,
        timestamp: new Date(entry.createdAt).toISOString(),
        payload: checkpoint,
      },
    },
  ];
}
