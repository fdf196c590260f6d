import { genAi, inSpan, neverAbortedSignal, type Span, SpanKind } from '../../core/index.ts';
import type { PendingInterrupt, Task } from '../checkpoint/types.ts';
import { RecursionLimitError } from '../errors/recursion-limit-error.ts';
import { RunCancelledError } from '../errors/run-cancelled-error.ts';
import type { ResumeInfo } from '../interrupt.ts';
import {
  checkConcurrentWrites,
  type NextTasks,
  nextFields,
  nextTasks,
} from '../planning/next-tasks.ts';
import { interruptsOf } from '../planning/pending-interrupts.ts';
import { mergeWrites, type Superstep, type TaskWrite } from '../planning/superstep.ts';
import { checkRunConfig } from '../planning/validate-graph.ts';
import { applyUpdate, type StateSchema } from '../state.ts';
import type { RunWriter } from '../storage/run-writer.ts';
import type { ThreadStore } from '../storage/thread-store.ts';
import type {
  ChildGraph,
  Durability,
  Edge,
  GraphEvent,
  Join,
  NodeContext,
  NodeFunction,
  RunConfig,
  RunResult,
  TaskRuntime,
} from '../types.ts';
import { openRun, type RunStart } from './begin-run.ts';
import { type EndableGraph, endRun } from './end-run.ts';
import { runTask, type TaskOutcome } from './run-task.ts';

export type { RunStart } from './begin-run.ts';

/** What a run needs of its compiled graph. */
export interface RunnableGraph extends EndableGraph {
  /** Names the run's span (`invoke_workflow <name>`). */
  name?: string | undefined;
  schema: StateSchema;
  nodes: ReadonlyMap<string, NodeFunction<StateSchema, unknown>>;
  edges: ReadonlyMap<string, readonly Edge<StateSchema>[]>;
  joins: readonly Join[];
  /** The nodes that are graphs: their tasks are handed the run's runtime. */
  subgraphs: ReadonlyMap<string, ChildGraph>;
  maxSteps: number;
  maxConcurrency: number | undefined;
  durability: Durability;
  errorNode: string | undefined;
  store: ThreadStore | undefined;
}

type Values = Record<string, unknown>;

/**
 * Runs a graph from START (or from where a paused or interrupted run stopped) to END or
 * to an interrupt, one super-step at a time, committing its entries when the graph has
 * a checkpointer and the run a thread. The caller serializes runs of one thread; this
 * function assumes it is alone on it. Traced as one `invoke_workflow` span with a child
 * span per node (no-ops until an OpenTelemetry SDK is registered).
 */
export function runGraph(
  graph: RunnableGraph,
  start: RunStart,
  config: RunConfig<unknown>,
): Promise<RunResult<StateSchema>> {
  const name = graph.name ?? 'graph';
  return inSpan(`invoke_workflow ${name}`, SpanKind.INTERNAL, (span) => {
    // Untraced, the run is not wrapped at all: the graph benchmark counts microseconds.
    if (!span.isRecording()) return runSteps(graph, start, config, span);
    span.setAttributes({
      [genAi.operationName]: 'invoke_workflow',
      [genAi.workflowName]: name,
      'yeoul.graph.resumed': start.kind === 'resume',
      ...(config.threadId === undefined ? {} : { 'yeoul.graph.thread_id': config.threadId }),
    });
    return runSteps(graph, start, config, span).then((result) => {
      span.setAttribute('yeoul.graph.status', result.status);
      return result;
    });
  });
}

/** The super-step that runs `tasks`, numbered `step`. */
function superstepOf(step: number, next: NextTasks): Superstep | null {
  if (next.tasks.length === 0) return null;
  return { step, tasks: next.tasks, writes: [], finished: [], joins: next.joins };
}

async function runSteps(
  graph: RunnableGraph,
  start: RunStart,
  config: RunConfig<unknown>,
  span: Span,
): Promise<RunResult<StateSchema>> {
  checkRunConfig(config);
  const threadId = config.threadId;
  const store = threadId === undefined ? undefined : graph.store;
  const signal = config.signal ?? neverAbortedSignal;
  const maxSteps = config.maxSteps ?? graph.maxSteps;
  const onEvent = config.onEvent as ((event: GraphEvent<StateSchema>) => void) | undefined;
  const routable = {
    ...graph,
    store,
    route: (finished: readonly string[], at: Values, joins: Record<string, string[]>) =>
      nextTasks(graph, finished, at, joins),
  };
  const beginning = await openRun(routable, start, {
    threadId,
    onPendingRun: config.onPendingRun ?? 'throw',
    durability: config.durability ?? graph.durability,
  });
  const writer: RunWriter = beginning.writer;
  const runId = writer.runId;
  if (span.isRecording()) span.setAttribute('yeoul.graph.run_id', runId);
  let { values, superstep, resume } = beginning;
  let step = superstep?.step ?? 0;
  onEvent?.({ type: 'run-start', threadId, runId, resumed: start.kind === 'resume' });

  /** Records the run's abnormal end (best effort: the error being thrown matters more). */
  async function fail(
    status: 'error' | 'cancelled',
    error: Error & { code?: string },
  ): Promise<never> {
    const detail = { code: error.code ?? 'internal_error', message: error.message };
    try {
      await endRun(
        routable,
        writer,
        values,
        step,
        { status, error: detail },
        `the run ended: ${error.message}`,
      );
    } catch {
      // The thread stays marked as running; the next run or `abandon` closes it.
    }
    throw error;
  }

  /** Ends the run paused on questions, once every write is committed. */
  async function pause(node: string, interrupts: PendingInterrupt[], update: Values | undefined) {
    await writer.commit(
      {
        kind: 'interrupt',
        node,
        step,
        update: update ?? null,
        next: node,
        status: 'interrupted',
        payload: { interrupts, answered: resume?.answered ?? [] },
      },
      values,
    );
    await writer.flush();
    onEvent?.({ type: 'interrupt', node, step, interrupts });
    return finish('interrupted', interrupts);
  }

  /** The run's result, announced as the `final` event. */
  function finish(status: 'done' | 'interrupted', interrupts: PendingInterrupt[]) {
    const result = { values: values as never, runId, status, interrupts };
    onEvent?.({
      type: 'final',
      threadId,
      runId,
      values: values as never,
      steps: step,
      status,
      interrupts,
    });
    return result;
  }

  const durability = config.durability ?? graph.durability;
  const contextFor = (node: string, taskResume: ResumeInfo | undefined): NodeContext<unknown> => {
    return {
      threadId,
      runId,
      step,
      signal,
      context: config.context,
      error: node === graph.errorNode ? routedError : undefined,
      resume: taskResume,
      emit: onEvent
        ? (name, data) => onEvent({ type: 'custom', node, name, data })
        : () => undefined,
    };
  };
  /** What a subgraph's task is handed of the run (undefined for other nodes). */
  const runtimeFor = (node: string, task: number): TaskRuntime | undefined =>
    graph.subgraphs.has(node)
      ? { task, checkpointer: store?.checkpointer, durability, onEvent }
      : undefined;

  let routedError: Error | undefined;
  let errorNodeUsed = false;
  /** After a failed task: the error node's super-step, or the run's end when there is none. */
  async function routeFailure(node: string, failure: Error): Promise<Superstep> {
    if (signal.aborted) await fail('cancelled', new RunCancelledError({ runId, cause: failure }));
    if (graph.errorNode === undefined || errorNodeUsed || node === graph.errorNode) {
      await fail('error', failure);
    }
    routedError = failure;
    return {
      step: step + 1,
      tasks: [{ node: graph.errorNode as string }],
      writes: [],
      finished: [],
      joins: {},
    };
  }

  while (superstep !== null) {
    step = superstep.step;
    if (signal.aborted)
      await fail('cancelled', new RunCancelledError({ runId, cause: signal.reason }));
    if (step > maxSteps && routedError === undefined) {
      const limitError = new RecursionLimitError({
        limit: maxSteps,
        node: (superstep.tasks[0] as Task).node,
      });
      if (graph.errorNode === undefined || errorNodeUsed) await fail('error', limitError);
      routedError = limitError;
      superstep = {
        ...superstep,
        tasks: [{ node: graph.errorNode as string }],
        writes: [],
        finished: [],
        joins: {},
      };
    }
    if (superstep.tasks.length === 1) {
      // One task: one entry, its update applied at once (the common, fast path).
      const task = superstep.tasks[0] as Task;
      const node = task.node;
      const context = contextFor(node, resume);
      resume = undefined;
      const outcome = await runTask(graph, task, values, context, runtimeFor(node, 0), onEvent);
      if (outcome.status === 'failed') {
        superstep = await routeFailure(node, outcome.error);
        continue;
      }
      if (node === graph.errorNode && routedError !== undefined) {
        errorNodeUsed = true;
        routedError = undefined;
      }
      values = applyUpdate(graph.schema, values, outcome.update);
      if (outcome.status === 'interrupted') {
        resume = context.resume;
        const interrupts = interruptsOf(node, outcome.requests, context.resume);
        return pause(node, interrupts, outcome.update);
      }
      let following: NextTasks;
      try {
        following = nextTasks(graph, [node], values, superstep.joins);
      } catch (error) {
        return fail('error', error as Error);
      }
      await writer.commit(
        { kind: 'node', node, step, update: outcome.update ?? null, ...nextFields(following) },
        values,
      );
      onEvent?.({ type: 'node-end', node, step, update: outcome.update as never });
      superstep = superstepOf(step + 1, following);
      continue;
    }
    const current: Superstep = superstep;
    const taskResume = resume;
    resume = undefined;
    const writes: TaskWrite[] = [...current.writes];
    const open = current.tasks
      .map((_task, index) => index)
      .filter((index) => !current.finished.includes(index));
    const outcomes = new Map<number, TaskOutcome>();
    const contexts = new Map<number, NodeContext<unknown>>();
    let running = open.length;
    let last: number | undefined;
    const settle = async (index: number) => {
      const task = current.tasks[index] as Task;
      const asked = taskResume?.interrupts.some((pending) => pending.node === task.node);
      const context = contextFor(task.node, asked ? taskResume : undefined);
      contexts.set(index, context);
      const runtime = runtimeFor(task.node, index);
      const outcome = await runTask(graph, task, values, context, runtime, onEvent);
      outcomes.set(index, outcome);
      running -= 1;
      const trouble = [...outcomes.values()].some((other) => other.status !== 'done');
      if (outcome.status === 'failed') return;
      if (outcome.status === 'done' && running === 0 && !trouble) {
        last = index;
        return;
      }
      if (outcome.update === undefined && outcome.status === 'interrupted') return;
      const write = { index, node: task.node, update: outcome.update ?? null };
      writes.push(write);
      await writer.commit(
        {
          kind: 'task',
          node: task.node,
          step,
          update: write.update,
          next: task.node,
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
        onEvent?.({ type: 'node-end', node: task.node, step, update: outcome.update as never });
      }
    };
    await runLimited(open, graph.maxConcurrency, settle);
    const failed = open.find((index) => outcomes.get(index)?.status === 'failed');
    if (failed !== undefined) {
      const outcome = outcomes.get(failed) as Extract<TaskOutcome, { status: 'failed' }>;
      superstep = await routeFailure((current.tasks[failed] as Task).node, outcome.error);
      continue;
    }
    const paused = open.filter((index) => outcomes.get(index)?.status === 'interrupted');
    if (paused.length > 0) {
      resume = taskResume;
      const interrupts = paused.flatMap((index) => {
        const outcome = outcomes.get(index) as Extract<TaskOutcome, { status: 'interrupted' }>;
        const node = (current.tasks[index] as Task).node;
        return interruptsOf(node, outcome.requests, contexts.get(index)?.resume);
      });
      return pause((current.tasks[paused[0] as number] as Task).node, interrupts, undefined);
    }
    if (routedError !== undefined && current.tasks.some((task) => task.node === graph.errorNode)) {
      errorNodeUsed = true;
      routedError = undefined;
    }
    const lastTask = last === undefined ? undefined : (current.tasks[last] as Task);
    const lastUpdate =
      last === undefined
        ? undefined
        : (outcomes.get(last) as { update: Values | undefined }).update;
    const merged = [
      ...writes,
      { index: last ?? -1, node: lastTask?.node ?? '', update: lastUpdate ?? null },
    ];
    let following: NextTasks;
    try {
      checkConcurrentWrites(graph.schema, merged);
      values = mergeWrites(graph.schema, values, merged);
      following = nextTasks(
        graph,
        current.tasks.map((task) => task.node),
        values,
        current.joins,
      );
    } catch (error) {
      return fail('error', error as Error);
    }
    const fields = nextFields(following);
    await writer.commit(
      {
        kind: 'node',
        node: lastTask?.node ?? null,
        step,
        update: lastUpdate ?? null,
        next: fields.next,
        payload: { interrupts: [], answered: [], ...fields.payload, task: last ?? -1 },
      },
      values,
    );
    if (lastTask !== undefined) {
      onEvent?.({ type: 'node-end', node: lastTask.node, step, update: lastUpdate as never });
    }
    superstep = superstepOf(step + 1, following);
  }
  await writer.flush();
  return finish('done', []);
}

/** Runs `work` for every item, at most `limit` at once (all at once without a limit). */
async function runLimited(
  items: readonly number[],
  limit: number | undefined,
  work: (item: number) => Promise<void>,
): Promise<void> {
  if (limit === undefined || limit >= items.length) {
    await Promise.all(items.map(work));
    return;
  }
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as number);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}
