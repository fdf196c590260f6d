import type { FastifyReply } from 'fastify';
import {
  type AgentRequest,
  type AgentResponse,
  type AgentRunner,
  graphNameOf,
} from '../../agents/index.ts';
import { createId, StoreUnavailableError } from '../../core/index.ts';
import type { Admission } from '../../identity/index.ts';
import { errorResponse } from '../http/http-error.ts';
import { coalesceTokens } from '../http/token-coalescer.ts';
import type { RouteContext } from '../routes/route-context.ts';
import type { LeaveQueue } from '../sessions/session-queue.ts';
import { RunStream, type StreamEvent } from './run-streams.ts';

/** The stream events clients get (`evaluation` stays inside the payload). */
const streamedEvents = new Set([
  'step',
  'token',
  'tool-call',
  'tool-result',
  'interrupt',
  'guardrail',
  'error',
  'done',
]);

/** One agent request as an HTTP surface hands it over (the session already claimed or checked). */
export type AgentCall = Pick<
  AgentRequest,
  'message' | 'history' | 'resume' | 'options' | 'owner'
> & {
  sessionId: string;
};

/** How a surface runs the request: cancellation, token streaming, and who sees its events. */
export interface AgentCallOptions {
  signal?: AbortSignal;
  streamTokens: boolean;
  /** Every recorded event, as it happens (after it is numbered for joiners). */
  onEvent?: (entry: StreamEvent) => void;
  /** The runner to run on (default the runtime's): `/v1`'s in-memory one for stateless calls. */
  runner?: AgentRunner;
  /** When the HTTP request arrived (`arrivalOf(reply)`): its place in the session's line. */
  arrivedAt?: number;
  /**
   * The request as counted against its owner's limits (`admitRun`): settled here, the run's
   * usage counted before `done` goes out, or the request taken back when its run never began.
   */
  admission?: Admission;
}

/** When the request answered by `reply` reached the server (a `performance.now()` time). */
export function arrivalOf(reply: FastifyReply): number {
  return performance.now() - reply.elapsedTime;
}

/**
 * Takes the request's place in its session's line (409 when the line is full, which takes
 * back its admission: a refused request counts nothing). In one process the place is taken at
 * once; across instances it is awaited.
 */
export async function takePlace(
  context: RouteContext,
  sessionId: string,
  arrivedAt: number | undefined,
  admission: Admission | undefined,
): Promise<LeaveQueue> {
  try {
    const entered = context.queue.enter(sessionId, arrivedAt);
    return entered instanceof Promise ? await entered : entered;
  } catch (error) {
    await admission?.refund();
    throw error;
  }
}

/**
 * Runs one request for /api, /v1 or MCP alike: counted against the session's queue bound
 * (409 beyond it), its events numbered and kept for clients that join the run
 * (`GET /api/sessions/:id/stream`), the `done` event recorded, and the run counted in the
 * metrics (runs, duration, tokens, tools, interrupts, decisions).
 */
export async function runAgentCall(
  context: RouteContext,
  call: AgentCall,
  options: AgentCallOptions,
): Promise<AgentResponse> {
  const { metrics } = context;
  const { admission } = options;
  // A stateless /v1 call runs on its own in-memory runner under a throwaway id: nobody can
  // queue behind it or join it, so it takes no place in the (shared) queue and its events
  // are not relayed.
  const shared = options.runner === undefined;
  const leave = shared
    ? await takePlace(context, call.sessionId, options.arrivedAt, admission)
    : () => undefined;
  const stream = shared
    ? context.streams.open(call.sessionId, createId())
    : new RunStream(createId(), call.sessionId, () => undefined);
  const started = performance.now();
  const events = coalesceTokens((name, data) => {
    if (!streamedEvents.has(name)) return;
    const entry = stream.push(name, data);
    options.onEvent?.(entry);
  });
  let failure: unknown;
  try {
    const payload = await (options.runner ?? context.runtime.runner).invoke({
      ...call,
      ...(options.signal ? { signal: options.signal } : {}),
      streamTokens: options.streamTokens,
      onEvent: events.emit,
    });
    events.flush();
    // Counted before `done` goes out: a client that has the answer finds it in its usage.
    await admission?.finish(payload.usage);
    for (const decision of call.resume?.decisions ?? []) {
      metrics.decisions.inc({ decision: decision.approve ? 'approve' : 'deny' });
    }
    for (const pending of payload.interrupts ?? []) metrics.interrupts.inc({ tool: pending.tool });
    metrics.observeRun({
      ...payload,
      graph: graphNameOf(call.options),
      executionTime: (performance.now() - started) / 1000,
    });
    options.onEvent?.(stream.push('done', payload));
    // An answer that says the store went away may have left its run's end unwritten: the
    // session's line stays taken until that end is stored, as for a run that threw.
    if (payload.errorCode === 'store_unavailable') {
      failure = new StoreUnavailableError({ store: 'state', reason: 'the run reported it' });
    }
    return payload;
  } catch (error) {
    failure = error;
    events.flush();
    // A run that had started tells its watchers how it failed; a refused one never began
    // and counts nothing.
    const began = stream.events.length > 0;
    await (began ? admission?.finish() : admission?.refund());
    if (began) {
      const { body } = errorResponse(error);
      metrics.errors.inc({ code: body.error.code });
      options.onEvent?.(stream.push('error', body.error));
    }
    throw error;
  } finally {
    if (shared) context.streams.finish(stream);
    leave(failure);
  }
}
