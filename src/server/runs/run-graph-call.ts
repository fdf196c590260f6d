import type { RunLimits } from '../../agents/index.ts';
import {
  type CompiledGraph,
  type GraphEvent,
  RunCancelledError,
  type RunResult,
  type StateSchema,
} from '../../graph/index.ts';
import { type Admission, runUsageOf } from '../../identity/index.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { failureOf } from './run-ledger.ts';
import { takePlace } from './run-request.ts';
import type { RunStreamChoice } from './run-store.ts';

/** One run of a graph of the config file on a thread: a state update in, or answers for its pause. */
export interface GraphCall {
  /** The graph's name (the run's `graph`). */
  name: string;
  graph: CompiledGraph<StateSchema, unknown>;
  threadId: string;
  owner: string;
  /** The run's id (a paused run's for answers: they go on under it). */
  runId: string;
  input?: Record<string, unknown>;
  /** Answers by interrupt id for the paused run. */
  answers?: Record<string, unknown>;
  /** When the request arrived (`arrivalOf(reply)`): its place in the thread's line. */
  arrivedAt?: number;
  /** The request as counted against its owner's limits. */
  admission: Admission;
  /** What started the run (its record's `source`; default `graph`). */
  source?: string;
  /** What the caller attached to the run (kept with its record). */
  metadata?: Record<string, unknown>;
  /** What its client streams (kept with its record). */
  stream?: RunStreamChoice;
  /** The run's own cap on super-steps and durability, over the compiled ones. */
  runConfig?: RunLimits;
  /** Its record was stored before it began (`queued`: a background run's). */
  recorded?: boolean;
}

/** The invoke body of a graph run (`POST /api/graphs/:name/invoke`). */
export type GraphRunAnswer = ReturnType<typeof resultBody>;

/**
 * Runs (or resumes) a graph of the config file on its thread in its place in the thread's
 * line, its record stored when its first event comes and when it pauses or ends; the request
 * counted (its usage from the state's `usage` channel) or, refused before it began, given back.
 */
export async function runGraphCall(
  context: RouteContext,
  call: GraphCall,
  options: { signal: AbortSignal; onEvent?: (event: GraphEvent<StateSchema>) => void },
): Promise<GraphRunAnswer> {
  const { runtime } = context;
  const { graph, threadId, admission, runId } = call;
  const leave = await takePlace(context, threadId, call.arrivedAt, admission);
  const record = context.runs.recorder(
    {
      runId,
      sessionId: threadId,
      owner: call.owner,
      status: 'running',
      source: call.source ?? 'graph',
      graph: call.name,
      createdAt: new Date().toISOString(),
      startedAt: null,
      endedAt: null,
      attempts: 1,
      instanceId: context.runs.instanceId,
      ...(call.metadata === undefined ? {} : { metadata: call.metadata }),
      ...(call.stream === undefined ? {} : { stream: call.stream }),
    },
    call.answers !== undefined || call.recorded === true,
  );
  let failure: unknown;
  let began = false;
  try {
    // The graph's nodes reach the caller's long-term memory through `kit.memoryOf(context)`;
    // its file tools see the caller's workspace (the agents' run context, `owner`).
    const memoryOwner = runtime.config.longTermMemory ? call.owner : undefined;
    const config = {
      threadId,
      signal: options.signal,
      context: {
        owner: call.owner,
        ...(memoryOwner === undefined ? {} : { memoryOwner }),
      },
      onEvent: (event: GraphEvent<StateSchema>) => {
        if (!began) void record.start();
        began = true;
        options.onEvent?.(event);
      },
      runId,
      ...call.runConfig,
    };
    const result = call.answers
      ? await graph.resumeRun(threadId, { ...config, answers: call.answers })
      : await graph.run(call.input as never, { ...config, onPendingRun: 'abandon' });
    // What the graph's state says its model calls used (a `usage` channel), if anything.
    await admission.finish(runUsageOf((result.values as { usage?: unknown }).usage));
    const answer = resultBody(threadId, result);
    await record.end({
      status: result.status === 'interrupted' ? 'interrupted' : 'done',
      result: answer,
    });
    return answer;
  } catch (error) {
    failure = error;
    if (began) {
      const cancelled = error instanceof RunCancelledError;
      await record.end(
        cancelled
          ? { status: 'cancelled', cancelReason: { type: 'client_left' } }
          : { status: 'failed', error: failureOf(error) },
      );
    }
    // A run refused before it began (nothing to resume, say) counts nothing.
    await (began ? admission.finish() : admission.refund());
    throw error;
  } finally {
    leave(failure);
  }
}

/** The invoke body of a graph run. */
function resultBody(threadId: string, result: RunResult<StateSchema>) {
  return {
    threadId,
    status: result.status,
    values: result.values,
    ...(result.interrupts.length > 0
      ? {
          interrupts: result.interrupts.map((pending) => ({
            id: pending.id,
            node: pending.node,
            value: pending.value,
            createdAt: new Date(pending.createdAt).toISOString(),
            ...(pending.path ? { path: pending.path } : {}),
          })),
        }
      : {}),
  };
}

/** A graph event as the stream sends it: `step`, `custom`, `interrupt`; others stay inside. */
export function graphStreamEventOf(
  event: GraphEvent<StateSchema>,
): { event: string; data: unknown } | undefined {
  const path = (event as { path?: string[] }).path;
  const where = path ? { path } : {};
  switch (event.type) {
    case 'node-start':
      return { event: 'step', data: { node: event.node, phase: 'start', ...where } };
    case 'node-end':
      return {
        event: 'step',
        data: { node: event.node, phase: 'end', update: event.update, ...where },
      };
    case 'custom':
      return {
        event: 'custom',
        data: { node: event.node, name: event.name, data: event.data, ...where },
      };
    case 'interrupt':
      return {
        event: 'interrupt',
        data: {
          node: event.node,
          interrupts: event.interrupts.map((pending) => ({
            id: pending.id,
            value: pending.value,
            ...(pending.path ? { path: pending.path } : {}),
          })),
          ...where,
        },
      };
    default:
      return undefined;
  }
}
