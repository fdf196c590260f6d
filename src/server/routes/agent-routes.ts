import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AgentResponse } from '../../agents/index.ts';
import { validateInput } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { errorResponse, HttpError } from '../http-error.ts';
import type { RunStream } from '../run-streams.ts';
import { invokeBody, parseWith, sessionParams } from '../schemas.ts';
import { sseHeaders, sseWriter } from '../sse.ts';
import type { RouteContext } from './route-context.ts';

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

/**
 * POST /api/agent/invoke and /api/agent/stream (Server-Sent Events, resumable): a new
 * message, or the decisions that resume a paused run.
 */
export function registerAgentRoutes(app: FastifyInstance, context: RouteContext): void {
  const { runtime, metrics } = context;

  const prepare = async (request: FastifyRequest) => {
    const parsed = parseWith(invokeBody, request.body);
    if (parsed.message !== undefined) {
      const problem = validateInput(parsed.message, runtime.model.settings.maxInputTokens);
      if (problem) {
        throw new HttpError({
          status: problem.code === 'input_too_long' ? 413 : 400,
          code: problem.code,
          message: problem.message,
        });
      }
    }
    const sessionId = parsed.sessionId ?? createId();
    const owner = context.ownerOf(request);
    if (parsed.resume) runtime.sessions.check(sessionId, owner);
    else await runtime.sessions.claim(sessionId, owner, parsed.message);
    return { ...parsed, sessionId };
  };

  /** Runs a request with its events recorded for joiners; counts it once it ends. */
  const execute = async (
    body: Awaited<ReturnType<typeof prepare>>,
    stream: RunStream,
    options: { signal: AbortSignal; streamTokens: boolean; onEvent?: (name: string) => void },
  ): Promise<AgentResponse> => {
    const started = performance.now();
    const payload = await runtime.runner.invoke({
      ...(body.message === undefined ? {} : { message: body.message }),
      sessionId: body.sessionId,
      ...(body.resume ? { resume: body.resume } : {}),
      ...(body.options ? { options: body.options } : {}),
      signal: options.signal,
      streamTokens: options.streamTokens,
      onEvent: (name, data) => {
        if (!streamedEvents.has(name)) return;
        stream.push(name, data);
        options.onEvent?.(name);
      },
    });
    for (const decision of body.resume?.decisions ?? []) {
      metrics.decisions.inc({ decision: decision.approve ? 'approve' : 'deny' });
    }
    for (const pending of payload.interrupts ?? []) metrics.interrupts.inc({ tool: pending.tool });
    metrics.observeRun({
      ...payload,
      graph: body.options?.graph ?? (body.options?.evaluate ? 'ops' : 'chat'),
      executionTime: (performance.now() - started) / 1000,
    });
    stream.push('done', payload);
    return payload;
  };

  app.post('/api/agent/invoke', async (request, reply) => {
    const body = await prepare(request);
    const leave = context.guard.enter(body.sessionId);
    const stream = context.streams.open(body.sessionId, createId());
    const controller = new AbortController();
    // The response closing before it was written means the client left: stop the run.
    reply.raw.on('close', () => {
      if (!reply.raw.writableEnded) controller.abort(new Error('the client went away'));
    });
    try {
      return await execute(body, stream, { signal: controller.signal, streamTokens: false });
    } finally {
      context.streams.finish(stream);
      leave();
    }
  });

  app.post('/api/agent/stream', async (request, reply) => {
    const body = await prepare(request);
    const leave = context.guard.enter(body.sessionId);
    const stream = context.streams.open(body.sessionId, createId());
    const controller = new AbortController();
    const cancelOnLeave = body.options?.onDisconnect === 'cancel';
    // Headers go out with the run's first event: a request refused before its run starts
    // (a pending approval, a decision already made) still gets its HTTP status.
    let writer: ReturnType<typeof sseWriter> | undefined;
    let stopFollowing: () => void = () => undefined;
    const open = () => {
      if (writer) return;
      reply.hijack();
      reply.raw.writeHead(200, { ...sseHeaders, 'x-request-id': request.id });
      writer = sseWriter(reply.raw);
      const active = writer;
      stopFollowing = stream.follow(
        undefined,
        (entry) => active.write(entry),
        () => active.close(),
      );
      reply.raw.on('close', () => {
        stopFollowing();
        active.close();
        if (cancelOnLeave && !stream.finished)
          controller.abort(new Error('the client disconnected'));
      });
    };
    try {
      await execute(body, stream, {
        signal: controller.signal,
        streamTokens: true,
        onEvent: open,
      });
      open();
    } catch (error) {
      if (writer === undefined) throw error;
      const { status, body: errorBody } = errorResponse(error);
      if (status >= 500) request.log.error({ err: error }, 'stream failed');
      metrics.errors.inc({ code: errorBody.error.code });
      stream.push('error', errorBody.error);
    } finally {
      context.streams.finish(stream);
      leave();
    }
  });

  app.get('/api/sessions/:id/stream', async (request, reply) => {
    const { id } = parseWith(sessionParams, request.params);
    runtime.sessions.check(id, context.ownerOf(request));
    const stream = context.streams.current(id);
    const lastEventId = headerOf(request, 'last-event-id');
    if (stream === undefined || (stream.finished && !stream.owns(lastEventId))) {
      throw new HttpError({
        status: 404,
        code: 'no_active_run',
        message: `session "${id}" has no run going`,
      });
    }
    joinStream(reply, request.id, stream, lastEventId);
  });
}

/** Replays a run's events after `lastEventId`, then follows it live until it ends. */
function joinStream(
  reply: FastifyReply,
  requestId: string,
  stream: RunStream,
  lastEventId: string | undefined,
): void {
  reply.hijack();
  reply.raw.writeHead(200, { ...sseHeaders, 'x-request-id': requestId });
  const writer = sseWriter(reply.raw);
  const stop = stream.follow(
    lastEventId,
    (entry) => writer.write(entry),
    () => writer.close(),
  );
  reply.raw.on('close', () => {
    stop();
    writer.close();
  });
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
