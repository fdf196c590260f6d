import type { AgentRequest, AgentResponse } from '../agents/index.ts';
import { createId } from '../core/index.ts';
import { errorResponse } from './http-error.ts';
import type { RouteContext } from './routes/route-context.ts';
import type { StreamEvent } from './run-streams.ts';

/** The stream events clients get (`evaluation` stays inside the payload). */
const streamedEvents = new Set([
  'step',
  'token',
  'tool-call',
  'tool-result',
  'interrupt',
  'error',
  'done',
]);

/** One agent request as an HTTP surface hands it over (the session already claimed or checked). */
export type AgentCall = Pick<AgentRequest, 'message' | 'resume' | 'options'> & {
  sessionId: string;
};

/** How a surface runs the request: cancellation, token streaming, and who sees its events. */
export interface AgentCallOptions {
  signal?: AbortSignal;
  streamTokens: boolean;
  /** Every recorded event, as it happens (after it is numbered for joiners). */
  onEvent?: (entry: StreamEvent) => void;
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
  const leave = context.guard.enter(call.sessionId);
  const stream = context.streams.open(call.sessionId, createId());
  const started = performance.now();
  try {
    const payload = await context.runtime.runner.invoke({
      ...call,
      ...(options.signal ? { signal: options.signal } : {}),
      streamTokens: options.streamTokens,
      onEvent: (name, data) => {
        if (!streamedEvents.has(name)) return;
        const entry = stream.push(name, data);
        options.onEvent?.(entry);
      },
    });
    for (const decision of call.resume?.decisions ?? []) {
      metrics.decisions.inc({ decision: decision.approve ? 'approve' : 'deny' });
    }
    for (const pending of payload.interrupts ?? []) metrics.interrupts.inc({ tool: pending.tool });
    metrics.observeRun({
      ...payload,
      graph: call.options?.graph ?? (call.options?.evaluate ? 'ops' : 'chat'),
      executionTime: (performance.now() - started) / 1000,
    });
    options.onEvent?.(stream.push('done', payload));
    return payload;
  } catch (error) {
    // A run that had started tells its watchers how it failed; a refused one never began.
    if (stream.events.length > 0) {
      const { body } = errorResponse(error);
      metrics.errors.inc({ code: body.error.code });
      options.onEvent?.(stream.push('error', body.error));
    }
    throw error;
  } finally {
    context.streams.finish(stream);
    leave();
  }
}
