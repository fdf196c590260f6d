import { genAi, inSpan, neverAbortedSignal, type Span, SpanKind } from '../core/index.ts';
import { beginRun, interruptsOf, type RunStart } from './begin-run.ts';
import { InvalidRouteError } from './errors/invalid-route-error.ts';
import { InvalidRunConfigError } from './errors/invalid-run-config-error.ts';
import { InvalidUpdateError } from './errors/invalid-update-error.ts';
import { NodeFailedError } from './errors/node-failed-error.ts';
import { RecursionLimitError } from './errors/recursion-limit-error.ts';
import { RunCancelledError } from './errors/run-cancelled-error.ts';
import { isInterrupt } from './interrupt.ts';
import type { RunWriter, WritableGraph } from './run-writer.ts';
import { applyUpdate, prepareUpdate, type StateSchema } from './state.ts';
import type { ThreadStore } from './thread-store.ts';
import {
  type Edge,
  END,
  type GraphEvent,
  type NodeContext,
  type NodeFunction,
  type RunConfig,
  type RunResult,
} from './types.ts';

export type { RunStart } from './begin-run.ts';

/** What a run needs of its compiled graph. */
export interface RunnableGraph extends WritableGraph {
  /** Names the run's span (`invoke_workflow <name>`). */
  name?: string | undefined;
  schema: StateSchema;
  nodes: ReadonlyMap<string, NodeFunction<StateSchema, unknown>>;
  edges: ReadonlyMap<string, Edge<StateSchema>>;
  maxSteps: number;
  errorNode: string | undefined;
  store: ThreadStore | undefined;
}

type Values = Record<string, unknown>;

/**
 * Runs a graph from START (or from where a paused or interrupted run stopped) to END or
 * to an interrupt, committing one entry per step when the graph has a checkpointer and
 * the run a thread. The caller serializes runs of one thread; this function assumes it
 * is alone on it. Traced as one `invoke_workflow` span with a child span per node (no-ops
 * until an OpenTelemetry SDK is registered).
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

async function runSteps(
  graph: RunnableGraph,
  start: RunStart,
  config: RunConfig<unknown>,
  span: Span,
): Promise<RunResult<StateSchema>> {
  checkRunConfig(config);
  const threadId = config.threadId;
  const store = threadId === undefined ? undefined : graph.store;
  const record = store && threadId !== undefined ? await store.load(threadId) : undefined;
  const signal = config.signal ?? neverAbortedSignal;
  const maxSteps = config.maxSteps ?? graph.maxSteps;
  const onEvent = config.onEvent as ((event: GraphEvent<StateSchema>) => void) | undefined;
  const routable = { ...graph, store, route: (from: string, at: Values) => route(graph, from, at) };
  const beginning = await beginRun(routable, record, start, {
    threadId,
    onPendingRun: config.onPendingRun ?? 'throw',
  });
  const writer: RunWriter = beginning.writer;
  const runId = writer.runId;
  if (span.isRecording()) span.setAttribute('yeoul.graph.run_id', runId);
  let { values, next, step, resume } = beginning;
  onEvent?.({ type: 'run-start', threadId, runId, resumed: start.kind === 'resume' });

  /** Records the run's abnormal end (best effort: the error being thrown matters more). */
  async function endRun(
    status: 'error' | 'cancelled',
    error: Error & { code?: string },
  ): Promise<never> {
    const detail = { code: error.code ?? 'internal_error', message: error.message };
    try {
      await writer.end(routable, values, step, { status, error: detail });
    } catch {
      // The thread stays marked as running; the next run or `abandon` closes it.
    }
    throw error;
  }

  let routedError: Error | undefined;
  let errorNodeUsed = false;
  while (next !== END) {
    if (signal.aborted)
      await endRun('cancelled', new RunCancelledError({ runId, cause: signal.reason }));
    if (step >= maxSteps && routedError === undefined) {
      const limitError = new RecursionLimitError({ limit: maxSteps, node: next });
      if (graph.errorNode === undefined || errorNodeUsed) await endRun('error', limitError);
      routedError = limitError;
      next = graph.errorNode as string;
    }
    const node = next;
    const run = graph.nodes.get(node) as NodeFunction<StateSchema, unknown>;
    step += 1;
    onEvent?.({ type: 'node-start', node, step });
    const context: NodeContext<unknown> = {
      threadId,
      runId,
      step,
      signal,
      context: config.context,
      error: node === graph.errorNode ? routedError : undefined,
      resume,
      emit: onEvent
        ? (name, data) => onEvent({ type: 'custom', node, name, data })
        : () => undefined,
    };
    resume = undefined;
    let outcome: unknown;
    let prepared: Values | undefined;
    try {
      const result = inSpan(`node ${node}`, SpanKind.INTERNAL, (nodeSpan) => {
        if (nodeSpan.isRecording()) {
          nodeSpan.setAttributes({ 'yeoul.graph.node': node, 'yeoul.graph.step': step });
        }
        return run(values as never, context);
      });
      outcome = result instanceof Promise ? await result : result;
      prepared = prepareUpdate(
        graph.schema,
        (isInterrupt(outcome) ? outcome.update : outcome) as Values | undefined,
        node,
      );
    } catch (cause) {
      if (signal.aborted) await endRun('cancelled', new RunCancelledError({ runId, cause }));
      const failure =
        cause instanceof InvalidUpdateError ? cause : new NodeFailedError({ node, cause });
      if (graph.errorNode === undefined || errorNodeUsed || node === graph.errorNode) {
        await endRun('error', failure);
      }
      routedError = failure;
      next = graph.errorNode as string;
      continue;
    }
    if (node === graph.errorNode && routedError !== undefined) {
      errorNodeUsed = true;
      routedError = undefined;
    }
    values = applyUpdate(graph.schema, values, prepared);
    if (isInterrupt(outcome)) {
      const interrupts = interruptsOf(node, outcome.requests, context.resume);
      const answered = context.resume?.answered ?? [];
      await writer.commit(
        {
          kind: 'interrupt',
          node,
          step,
          update: prepared ?? null,
          next: node,
          status: 'interrupted',
          payload: { interrupts, answered },
        },
        values,
      );
      onEvent?.({ type: 'interrupt', node, step, interrupts });
      onEvent?.({
        type: 'final',
        threadId,
        runId,
        values: values as never,
        steps: step,
        status: 'interrupted',
        interrupts,
      });
      return { values: values as never, runId, status: 'interrupted', interrupts };
    }
    let following: string;
    try {
      following = route(graph, node, values);
    } catch (error) {
      return endRun('error', error as Error);
    }
    await writer.commit(
      { kind: 'node', node, step, update: prepared ?? null, next: following },
      values,
    );
    onEvent?.({ type: 'node-end', node, step, update: prepared as never });
    next = following;
  }
  onEvent?.({
    type: 'final',
    threadId,
    runId,
    values: values as never,
    steps: step,
    status: 'done',
    interrupts: [],
  });
  return { values: values as never, runId, status: 'done', interrupts: [] };
}

function checkRunConfig(config: RunConfig<unknown>): void {
  const problems: string[] = [];
  const { maxSteps, threadId } = config;
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) {
    problems.push(`maxSteps must be a positive whole number, not ${String(maxSteps)}`);
  }
  if (threadId !== undefined && (typeof threadId !== 'string' || threadId.length === 0)) {
    problems.push('threadId must be a non-empty string');
  }
  if (problems.length > 0) throw new InvalidRunConfigError({ problems });
}

/** Where the run goes after `from`, checked against the declared destinations. */
function route(graph: RunnableGraph, from: string, values: Values): string {
  const edge = graph.edges.get(from) as Edge<StateSchema>;
  if (edge.kind === 'plain') return edge.to;
  const destination = edge.router(values as never);
  if (!edge.destinations.includes(destination)) {
    throw new InvalidRouteError({
      node: from,
      route: destination,
      allowed: [...edge.destinations],
    });
  }
  return destination;
}
