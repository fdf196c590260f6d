import { genAi, inSpan, neverAbortedSignal, type Span, SpanKind } from '../../core/index.ts';
import type { PendingInterrupt, Task } from '../checkpoint/types.ts';
import { RecursionLimitError } from '../errors/recursion-limit-error.ts';
import { RunCancelledError } from '../errors/run-cancelled-error.ts';
import { interruptsOf } from '../planning/interrupts-of.ts';
import {
  checkConcurrentWrites,
  type NextTasks,
  nextFields,
  nextTasks,
} from '../planning/next-tasks.ts';
import { mergeWrites, type Superstep } from '../planning/superstep.ts';
import { checkRunConfig } from '../planning/validate-graph.ts';
import { applyUpdate, prepareUpdate, type StateSchema } from '../state.ts';
import type { EntryFields, RunWriter } from '../storage/run-writer.ts';
import type { ThreadStore } from '../storage/thread-store.ts';
import {
  type ChildGraph,
  type ClosingStep,
  type Durability,
  type Edge,
  END,
  type GraphEvent,
  type Join,
  type RunConfig,
  type RunResult,
} from '../types.ts';
import { openRun, type RunStart } from './begin-run.ts';
import { type EndableGraph, endRun } from './end-run.ts';
import {
  type FinishedTask,
  runSuperstep,
  type SuperstepGraph,
  type SuperstepRun,
} from './run-superstep.ts';

export type { RunStart } from './begin-run.ts';

/** What a run needs of its compiled graph. */
export interface RunnableGraph extends EndableGraph, SuperstepGraph {
  /** Names the run's span (`invoke_workflow <name>`). */
  name?: string | undefined;
  edges: ReadonlyMap<string, readonly Edge<StateSchema>[]>;
  joins: readonly Join[];
  /** The nodes that are graphs: their tasks are handed the run's runtime. */
  subgraphs: ReadonlyMap<string, ChildGraph>;
  maxSteps: number;
  durability: Durability;
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

/**
 * The entry that closes a super-step whose tasks all finished: a lone task's `node` entry,
 * or the `node` entry that completes a super-step of several (`payload.task` names the
 * task whose write it carries, -1 for none).
 */
function closingEntry(
  step: number,
  lone: boolean,
  last: FinishedTask | undefined,
  following: NextTasks,
): EntryFields {
  const { next, payload } = nextFields(following);
  if (lone) {
    const { node, update } = last as FinishedTask;
    return { kind: 'node', node, step, update: update ?? null, next, payload };
  }
  return {
    kind: 'node',
    node: last?.node ?? null,
    step,
    update: last?.update ?? null,
    next,
    payload: { interrupts: [], answered: [], ...payload, task: last?.index ?? -1 },
  };
}

/** The loop: runs super-steps (`runSuperstep`), merges their writes, routes, commits. */
async function runSteps(
  graph: RunnableGraph,
  start: RunStart,
  config: RunConfig<unknown>,
  span: Span,
): Promise<RunResult<StateSchema>> {
  checkRunConfig(config);
  // A run cancelled before its turn came commits nothing: not even its input.
  if (config.signal?.aborted === true) {
    throw new RunCancelledError({
      runId: config.runId ?? '(not started)',
      cause: config.signal.reason,
    });
  }
  const threadId = config.threadId;
  const store = threadId === undefined ? undefined : graph.store;
  const signal = config.signal ?? neverAbortedSignal;
  const maxSteps = config.maxSteps ?? graph.maxSteps;
  const durability = config.durability ?? graph.durability;
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
    durability,
    runId: config.runId,
  });
  const writer = beginning.writer;
  const runId = writer.runId;
  if (span.isRecording()) span.setAttribute('yeoul.graph.run_id', runId);
  let { values, superstep, resume } = beginning;
  let step = superstep?.step ?? 0;
  if (config.recordOnly === true && start.kind === 'input') superstep = null;
  onEvent?.({ type: 'run-start', threadId, runId, resumed: start.kind === 'resume' });
  const run: SuperstepRun = {
    graph,
    writer,
    threadId,
    runId,
    signal,
    context: config.context,
    durability,
    checkpointer: store?.checkpointer,
    onEvent,
  };

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
        { status, error: detail, ...(status === 'cancelled' ? { cause: signal.reason } : {}) },
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
    const current: Superstep = superstep;
    const taskResume = resume;
    resume = undefined;
    const outcome = await runSuperstep(run, current, values, taskResume, routedError);
    if (outcome.status === 'failed') {
      superstep = await routeFailure(outcome.node, outcome.error);
      continue;
    }
    if (outcome.status === 'interrupted') {
      resume = taskResume;
      const interrupts = outcome.paused.flatMap((task) =>
        interruptsOf(task.node, task.requests, task.resume),
      );
      values = applyUpdate(graph.schema, values, outcome.update);
      return pause((outcome.paused[0] as { node: string }).node, interrupts, outcome.update);
    }
    if (routedError !== undefined && current.tasks.some((task) => task.node === graph.errorNode)) {
      errorNodeUsed = true;
      routedError = undefined;
    }
    const { writes, last } = outcome;
    const lone = current.tasks.length === 1;
    // A lone task's update applies as it is: there is no other write to order or check.
    if (lone) values = applyUpdate(graph.schema, values, last?.update);
    let following: NextTasks;
    try {
      if (!lone) {
        const merged = [
          ...writes,
          { index: last?.index ?? -1, node: last?.node ?? '', update: last?.update ?? null },
        ];
        checkConcurrentWrites(graph.schema, merged);
        values = mergeWrites(graph.schema, values, merged);
      }
      following = nextTasks(
        graph,
        current.tasks.map((task) => task.node),
        values,
        current.joins,
      );
    } catch (error) {
      return fail('error', error as Error);
    }
    await writer.commit(closingEntry(step, lone, last, following), values);
    if (last !== undefined) {
      onEvent?.({ type: 'node-end', node: last.node, step, update: last.update as never });
    }
    superstep = superstepOf(step + 1, following);
  }
  const closing = await config.closingStep?.(values);
  if (closing !== undefined) {
    step += 1;
    values = await commitClosingStep(graph, writer, values, step, closing);
  }
  await writer.flush();
  return finish('done', []);
}

/**
 * Commits a step the run records without running it: the fields of `update` the schema
 * has are applied, the others kept in the entry only (replay skips them). Returns the state.
 */
async function commitClosingStep(
  graph: RunnableGraph,
  writer: RunWriter,
  values: Values,
  step: number,
  closing: ClosingStep,
): Promise<Values> {
  const known: Values = {};
  const kept: Values = {};
  for (const [key, value] of Object.entries(closing.update)) {
    if (graph.schema[key] === undefined) kept[key] = value;
    else known[key] = value;
  }
  const prepared = prepareUpdate(graph.schema, known, closing.node);
  const after = applyUpdate(graph.schema, values, prepared);
  await writer.commit(
    { kind: 'node', node: closing.node, step, update: { ...prepared, ...kept }, next: END },
    after,
  );
  return after;
}
