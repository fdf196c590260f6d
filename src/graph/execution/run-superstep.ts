import type { Checkpointer, Task } from '../checkpoint/types.ts';
import type { InterruptRequest, ResumeInfo } from '../interrupt.ts';
import type { Superstep, TaskWrite } from '../planning/superstep.ts';
import type { StateSchema } from '../state.ts';
import type { RunWriter } from '../storage/run-writer.ts';
import type { Durability, GraphEvent, NodeContext, TaskRuntime } from '../types.ts';
import { runTask, type TaskGraph, type TaskOutcome } from './run-task.ts';

type Values = Record<string, unknown>;

/** What running a super-step needs of its graph. */
export interface SuperstepGraph extends TaskGraph {
  /** How many tasks of one super-step run at once (all when undefined). */
  maxConcurrency: number | undefined;
  errorNode: string | undefined;
}

/** The run a super-step belongs to: what its tasks are handed, and where they commit. */
export interface SuperstepRun {
  graph: SuperstepGraph;
  writer: RunWriter;
  threadId: string | undefined;
  runId: string;
  signal: AbortSignal;
  /** Whatever the caller passed as `context`, handed to every node. */
  context: unknown;
  durability: Durability;
  /** The checkpointer a subgraph's runs commit to: the run's, when it has a thread. */
  checkpointer: Checkpointer | undefined;
  onEvent: ((event: GraphEvent<StateSchema>) => void) | undefined;
}

/** A task that finished: its place in the super-step, its node and its update. */
export interface FinishedTask {
  index: number;
  node: string;
  update: Values | undefined;
}

/** A task that paused its run, with the answers it was handed. */
export interface PausedTask {
  node: string;
  requests: InterruptRequest[];
  resume: ResumeInfo | undefined;
}

/** How a super-step ended. */
export type SuperstepOutcome =
  /** A task failed (the first in task order); nothing of the super-step is merged. */
  | { status: 'failed'; node: string; error: Error }
  /**
   * Tasks paused (in task order). `update` is a lone task's work done before it paused,
   * which the interrupt entry carries; tasks of a larger super-step committed theirs.
   */
  | { status: 'interrupted'; paused: PausedTask[]; update: Values | undefined }
  /**
   * Every task finished: `writes` are those committed as task entries in this super-step
   * (earlier ones included), `last` the task whose write the closing entry carries.
   */
  | { status: 'done'; writes: TaskWrite[]; last: FinishedTask | undefined };

/**
 * Runs the open tasks of a super-step (those that had not finished when its run stopped),
 * at most `maxConcurrency` at once, on the state as it was before the super-step, and
 * commits each task's write as it finishes: a `task` entry (`partial` for a task that
 * paused after doing work). Two writes are left to the super-step's closing entry: that of
 * the last task to finish when every task finished well, and a lone task's (a super-step
 * of one task is one entry). Merging the writes and routing are the loop's.
 */
export async function runSuperstep(
  run: SuperstepRun,
  superstep: Superstep,
  values: Values,
  resume: ResumeInfo | undefined,
  routedError: Error | undefined,
): Promise<SuperstepOutcome> {
  const { graph, writer, onEvent } = run;
  const { step, tasks } = superstep;
  const lone = tasks.length === 1;
  const open: number[] = [];
  for (let index = 0; index < tasks.length; index += 1) {
    if (!superstep.finished.includes(index)) open.push(index);
  }
  const outcomes: TaskOutcome[] = [];
  // A lone task commits no write of its own, so its super-step's (empty) list is kept as is.
  const writes = lone ? superstep.writes : superstep.writes.slice();
  let last: FinishedTask | undefined;
  let running = open.length;
  let troubled = false;
  const settle = async (index: number) => {
    const task = tasks[index] as Task;
    const node = task.node;
    const runtime = graph.subgraphs.has(node) ? runtimeOf(run, index) : undefined;
    const context = contextOf(run, node, step, answersFor(node, lone, resume), routedError);
    const outcome = await runTask(graph, task, values, context, runtime, onEvent);
    outcomes[index] = outcome;
    running -= 1;
    if (outcome.status !== 'done') troubled = true;
    if (outcome.status === 'failed') return;
    if (outcome.status === 'done' && running === 0 && !troubled) {
      last = { index, node, update: outcome.update };
      return;
    }
    if (outcome.status === 'interrupted' && (lone || outcome.update === undefined)) return;
    const write = { index, node, update: outcome.update ?? null };
    writes.push(write);
    await writer.commit(
      {
        kind: 'task',
        node,
        step,
        update: write.update,
        next: node,
        payload: {
          interrupts: [],
          answered: [],
          task: index,
          ...(outcome.status === 'interrupted' ? { partial: true as const } : {}),
        },
      },
      values,
    );
    if (outcome.status === 'done') {
      onEvent?.({ type: 'node-end', node, step, update: outcome.update as never });
    }
  };
  await runLimited(open, graph.maxConcurrency, settle);
  if (troubled) return troubleOf(tasks, open, outcomes, lone, resume);
  return { status: 'done', writes, last };
}

/** How a super-step with a failed or paused task ended: the first failure wins. */
function troubleOf(
  tasks: readonly Task[],
  open: readonly number[],
  outcomes: readonly TaskOutcome[],
  lone: boolean,
  resume: ResumeInfo | undefined,
): SuperstepOutcome {
  const paused: PausedTask[] = [];
  let update: Values | undefined;
  for (const index of open) {
    const outcome = outcomes[index] as TaskOutcome;
    const node = (tasks[index] as Task).node;
    if (outcome.status === 'failed') return { status: 'failed', node, error: outcome.error };
    if (outcome.status === 'interrupted') {
      paused.push({ node, requests: outcome.requests, resume: answersFor(node, lone, resume) });
      if (lone) update = outcome.update;
    }
  }
  return { status: 'interrupted', paused, update };
}

const ignoreEvent = () => undefined;

/** The answers a task is handed: all of them for a lone task; of several, each task whose node asked. */
function answersFor(
  node: string,
  lone: boolean,
  resume: ResumeInfo | undefined,
): ResumeInfo | undefined {
  return lone || resume?.interrupts.some((pending) => pending.node === node) ? resume : undefined;
}

/** The context a task's node is called with. */
function contextOf(
  run: SuperstepRun,
  node: string,
  step: number,
  resume: ResumeInfo | undefined,
  routedError: Error | undefined,
): NodeContext<unknown> {
  const { onEvent } = run;
  return {
    threadId: run.threadId,
    runId: run.runId,
    step,
    signal: run.signal,
    context: run.context,
    error: node === run.graph.errorNode ? routedError : undefined,
    resume,
    emit: onEvent ? (name, data) => onEvent({ type: 'custom', node, name, data }) : ignoreEvent,
  };
}

/** What a subgraph's task is handed of the run. */
function runtimeOf(run: SuperstepRun, task: number): TaskRuntime {
  return {
    task,
    checkpointer: run.checkpointer,
    durability: run.durability,
    onEvent: run.onEvent,
  };
}

/** Runs `work` for every item, at most `limit` at once (all at once without a limit). */
function runLimited(
  items: readonly number[],
  limit: number | undefined,
  work: (item: number) => Promise<void>,
): Promise<unknown> {
  // One item is awaited as it is: no combined promise on the path of every lone task.
  if (items.length === 1) return work(items[0] as number);
  if (limit === undefined || limit >= items.length) return Promise.all(items.map(work));
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as number);
  };
  return Promise.all(Array.from({ length: limit }, worker));
}
