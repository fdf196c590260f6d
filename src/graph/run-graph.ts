import { createId, neverAbortedSignal } from '../core/index.ts';
import type { CheckpointEntry, RunStatus } from './checkpoint/types.ts';
import { InvalidRouteError } from './errors/invalid-route-error.ts';
import { InvalidRunConfigError } from './errors/invalid-run-config-error.ts';
import { InvalidUpdateError } from './errors/invalid-update-error.ts';
import { NodeFailedError } from './errors/node-failed-error.ts';
import { NothingToResumeError } from './errors/nothing-to-resume-error.ts';
import { PendingRunError } from './errors/pending-run-error.ts';
import { RecursionLimitError } from './errors/recursion-limit-error.ts';
import { RunCancelledError } from './errors/run-cancelled-error.ts';
import { applyUpdate, initialState, prepareUpdate, type StateSchema } from './state.ts';
import type { ThreadRecord, ThreadStore } from './thread-store.ts';
import {
  type Edge,
  END,
  type GraphEvent,
  type NodeContext,
  type NodeFunction,
  type RunConfig,
  START,
} from './types.ts';

/** What a run needs of its compiled graph. */
export interface RunnableGraph {
  schema: StateSchema;
  nodes: ReadonlyMap<string, NodeFunction<StateSchema, unknown>>;
  edges: ReadonlyMap<string, Edge<StateSchema>>;
  maxSteps: number;
  errorNode: string | undefined;
  store: ThreadStore | undefined;
}

/** How a run begins: with new input, or by continuing the thread's interrupted run. */
export type RunStart = { kind: 'input'; input: Record<string, unknown> } | { kind: 'resume' };

type Values = Record<string, unknown>;

/**
 * Runs a graph from START (or from where an interrupted run stopped) to END,
 * committing one entry per step when the graph has a checkpointer and the run a thread.
 * The caller serializes runs of one thread; this function assumes it is alone on it.
 */
export async function runGraph(
  graph: RunnableGraph,
  start: RunStart,
  config: RunConfig<unknown>,
): Promise<Values> {
  checkRunConfig(config);
  const threadId = config.threadId;
  const store = threadId === undefined ? undefined : graph.store;
  const record = store && threadId !== undefined ? await store.load(threadId) : undefined;
  const signal = config.signal ?? neverAbortedSignal;
  const maxSteps = config.maxSteps ?? graph.maxSteps;
  const onEvent = config.onEvent as ((event: GraphEvent<StateSchema>) => void) | undefined;
  const last = record?.last ?? null;

  let values: Values;
  let next: string;
  let runId: string;
  let step: number;
  if (start.kind === 'resume') {
    if (
      threadId === undefined ||
      last === null ||
      last.status !== 'running' ||
      last.next === null
    ) {
      throw new NothingToResumeError({ threadId: threadId ?? '(none)' });
    }
    values = (record as ThreadRecord).values;
    runId = last.runId;
    step = last.step;
    next = last.next;
  } else {
    if (last !== null && last.status === 'running') {
      throw new PendingRunError({ threadId: threadId as string, runId: last.runId });
    }
    runId = createId();
    step = 0;
    const prepared = prepareUpdate(graph.schema, start.input, START);
    values = applyUpdate(graph.schema, record?.values ?? initialState(graph.schema), prepared);
    next = route(graph, START, values);
    if (record) {
      await commitEntry(
        record,
        { kind: 'input', node: null, update: prepared ?? null, next },
        values,
      );
    }
  }
  onEvent?.({ type: 'run-start', threadId, runId, resumed: start.kind === 'resume' });

  async function commitEntry(
    target: ThreadRecord,
    fields: Pick<CheckpointEntry, 'kind' | 'node' | 'update' | 'next'> & {
      status?: RunStatus;
      error?: CheckpointEntry['error'];
    },
    after: Values,
  ): Promise<void> {
    const entry: CheckpointEntry = {
      threadId: target.threadId,
      seq: target.seq + 1,
      runId,
      kind: fields.kind,
      node: fields.node,
      step,
      update: fields.update,
      next: fields.next === END ? null : fields.next,
      status: fields.status ?? (fields.next === END ? 'done' : 'running'),
      error: fields.error ?? null,
      createdAt: Date.now(),
    };
    await (store as ThreadStore).commit(target, entry, after);
  }

  /** Records the run's abnormal end (best effort: the error being thrown matters more). */
  async function endRun(status: RunStatus, error: Error & { code?: string }): Promise<never> {
    if (record) {
      const detail = { code: error.code ?? 'internal_error', message: error.message };
      try {
        await commitEntry(
          record,
          { kind: 'end', node: null, update: null, next: END, status, error: detail },
          values,
        );
      } catch {
        // The thread stays marked as interrupted; resume or abandon clears it.
      }
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
      emit: onEvent
        ? (name, data) => onEvent({ type: 'custom', node, name, data })
        : () => undefined,
    };
    let prepared: Values | undefined;
    try {
      const result = run(values as never, context);
      const update = result instanceof Promise ? await result : result;
      prepared = prepareUpdate(graph.schema, update as Values | undefined, node);
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
    let following: string;
    try {
      following = route(graph, node, values);
    } catch (error) {
      return endRun('error', error as Error);
    }
    if (record)
      await commitEntry(
        record,
        { kind: 'node', node, update: prepared ?? null, next: following },
        values,
      );
    onEvent?.({ type: 'node-end', node, step, update: prepared as never });
    next = following;
  }
  onEvent?.({ type: 'final', threadId, runId, values: values as never, steps: step });
  return values;
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
