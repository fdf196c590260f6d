import type { HistoryEntry, StateSchema } from '../../graph/index.ts';
import { toLangGraphUpdate, toLangGraphValues } from './langgraph-messages.ts';

/** One event of a LangGraph run stream, before it is numbered. */
export interface LangGraphEvent {
  event: string;
  data: unknown;
}

/** A node's task id in a run: the run, its super-step and the node. */
function taskIdOf(runId: string, superstep: number | undefined, node: string): string {
  return `${runId}:${superstep ?? 0}:${node}`;
}

/** A checkpoint reference of a thread's step. */
function configOf(threadId: string, step: number) {
  return { configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: String(step) } };
}

/** `tasks` and `debug` events as a node starts. */
export function taskStartEvents(
  runId: string,
  node: string,
  superstep: number | undefined,
): LangGraphEvent[] {
  const task = { id: taskIdOf(runId, superstep, node), name: node, input: null, triggers: [] };
  return [
    { event: 'tasks', data: task },
    {
      event: 'debug',
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
export function taskEndEvents(runId: string, entry: HistoryEntry<StateSchema>): LangGraphEvent[] {
  const node = entry.node ?? entry.kind;
  const result = {
    id: taskIdOf(runId, entry.superstep, node),
    name: node,
    result: toLangGraphUpdate(entry.update),
    error: entry.error === null ? null : entry.error.code,
    interrupts: [],
  };
  return [
    { event: 'tasks', data: result },
    {
      event: 'debug',
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
): LangGraphEvent[] {
  const checkpoint = {
    values: toLangGraphValues(entry.values),
    next: entry.next === null ? [] : [entry.next],
    tasks: [],
    metadata: checkpointMetadataOf(entry),
    config: configOf(threadId, entry.step),
    parent_config: parentStep === undefined ? null : configOf(threadId, parentStep),
  };
  return [
    { event: 'checkpoints', data: checkpoint },
    {
      event: 'debug',
      data: {
        type: 'checkpoint',
        step: entry.superstep,
        timestamp: new Date(entry.createdAt).toISOString(),
        payload: checkpoint,
      },
    },
  ];
}
