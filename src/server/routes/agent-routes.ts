import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateInput } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { invokeBody } from '../../protocol/index.ts';
import { HttpError } from '../http/http-error.ts';
import { parseWith, sessionParams } from '../http/schemas.ts';
import { sseHeaders, sseWriter } from '../http/sse.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import type { FollowableStream } from '../runs/run-streams.ts';
import { requireChatGraph } from '../runtime/graph-names.ts';
import type { RouteContext } from './route-context.ts';

/**
 * POST /api/agent/invoke and /api/agent/stream (Server-Sent Events, resumable): a new
 * message, or the decisions that resume a paused run; GET /api/sessions/:id/stream joins
 * a session's run.
 */
export function registerAgentRoutes(app: FastifyInstance, context: RouteContext): void {
  const { runtime } = context;

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
    const graph = parsed.options?.graph;
    if (graph !== undefined) requireChatGraph(runtime, graph);
    const sessionId = parsed.sessionId ?? createId();
    const owner = context.ownerOf(request);
    if (parsed.resume) await runtime.sessions.check(sessionId, owner);
    else await runtime.sessions.claim(sessionId, owner, parsed.message, graph);
    const { sessionId: _given, ...rest } = parsed;
    return { ...rest, sessionId, owner };
  };

  app.post('/api/agent/invoke', async (request, reply) => {
    const call = await prepare(request);
    const controller = new AbortController();
    // The response closing before it was written means the client left: stop the run.
    reply.raw.on('close', () => {
      if (!reply.raw.writableEnded) controller.abort(new Error('the client went away'));
    });
    return runAgentCall(context, call, {
      signal: controller.signal,
      streamTokens: false,
      arrivedAt: arrivalOf(reply),
    });
  });

  app.post('/api/agent/stream', async (request, reply) => {
    const call = await prepare(request);
    const controller = new AbortController();
    const cancelOnLeave = call.options?.onDisconnect === 'cancel';
    // Headers go out with the run's first event: a request refused before its run starts
    // (a pending approval, a decision already made) still gets its HTTP status. A client
    // that leaves does not stop the run (unless it asked to): it can join again.
    let writer: ReturnType<typeof sseWriter> | undefined;
    let finished = false;
    const open = () => {
      if (writer) return writer;
      reply.hijack();
      reply.raw.writeHead(200, { ...sseHeaders, 'x-request-id': request.id });
      const opened = sseWriter(reply.raw);
      reply.raw.on('close', () => {
        opened.close();
        if (cancelOnLeave && !finished) controller.abort(new Error('the client disconnected'));
      });
      writer = opened;
      return opened;
    };
    try {
      await runAgentCall(context, call, {
        signal: controller.signal,
        streamTokens: true,
        arrivedAt: arrivalOf(reply),
        onEvent: (entry) => open().write(entry),
      });
    } catch (error) {
      if (writer === undefined) throw error;
      if ((error as { statusCode?: number }).statusCode === undefined) {
        request.log.warn({ err: error }, 'stream ended with an error');
      }
    } finally {
      finished = true;
      writer?.close();
    }
  });

  app.get('/api/sessions/:id/stream', async (request, reply) => {
    const { id } = parseWith(sessionParams, request.params);
    await runtime.sessions.check(id, context.ownerOf(request));
    const lastEventId = headerOf(request, 'last-event-id');
    // The run may be going in another instance: the hub then follows it through the database.
    const stream = await context.streams.joinable(id, lastEventId);
    if (stream === undefined) {
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
  stream: FollowableStream,
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
