import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { invokeBody, invokeResponseSchema } from '../../protocol/index.ts';
import {
  defineRoute,
  eventStream,
  type RouteGroup,
  type RouteInput,
} from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { sessionParams } from '../http/schemas.ts';
import { sseHeaders, sseWriter } from '../http/sse.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import type { FollowableStream } from '../runs/run-streams.ts';
import { prepareAgentCall } from './prepare-agent-call.ts';
import type { RouteContext } from './route-context.ts';

/** The statuses an agent run's errors come with. */
const runErrors = [400, 401, 404, 409, 413, 429, 500, 503];

/**
 * POST /api/agent/invoke and /api/agent/stream (Server-Sent Events, resumable): a new
 * message, or the decisions that resume a paused run; GET /api/sessions/:id/stream joins
 * a session's run.
 */
export function agentRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;

  const prepare = (request: FastifyRequest, input: RouteInput<{ body: typeof invokeBody }>) =>
    prepareAgentCall(context, request, input.body());

  const invokeAgent = defineRoute({
    method: 'POST',
    path: '/api/agent/invoke',
    scope: 'yeoul:write',
    operationId: 'invokeAgent',
    summary: 'Run the agent on a message (or resume a paused run with decisions)',
    request: { body: invokeBody },
    responses: { 200: { description: 'the answer payload', schema: invokeResponseSchema } },
    errors: runErrors,
    handler: async (request, reply, input) => {
      const { call, admission } = await prepare(request, input);
      const controller = new AbortController();
      // The response closing before it was written means the client left: stop the run.
      reply.raw.on('close', () => {
        if (!reply.raw.writableEnded) controller.abort(new Error('the client went away'));
      });
      return runAgentCall(context, call, {
        signal: controller.signal,
        streamTokens: false,
        arrivedAt: arrivalOf(reply),
        admission,
        source: 'invoke',
        cancelReason: () => (controller.signal.aborted ? { type: 'client_left' } : undefined),
      });
    },
  });

  const streamAgent = defineRoute({
    method: 'POST',
    path: '/api/agent/stream',
    scope: 'yeoul:write',
    operationId: 'streamAgent',
    summary:
      'Run the agent and stream its events (Server-Sent Events: step, token, tool-call, tool-result, interrupt, error, done)',
    request: { body: invokeBody },
    responses: {
      200: {
        description: 'text/event-stream; the `done` event carries the invoke payload',
        content: eventStream,
      },
    },
    errors: runErrors,
    handler: async (request, reply, input) => {
      const { call, admission } = await prepare(request, input);
      const controller = new AbortController();
      const cancelOnLeave = input.body().options?.onDisconnect === 'cancel';
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
          admission,
          onEvent: (entry) => open().write(entry),
          source: 'stream',
          cancelReason: () => (controller.signal.aborted ? { type: 'client_left' } : undefined),
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
    },
  });

  const joinSessionStream = defineRoute({
    method: 'GET',
    path: '/api/sessions/:id/stream',
    scope: 'yeoul:read',
    operationId: 'joinSessionStream',
    summary: 'Join the session’s running run: replay after Last-Event-ID, then live',
    request: {
      params: sessionParams,
      headers: z.object({ 'Last-Event-ID': z.string().optional() }),
    },
    responses: { 200: { description: 'text/event-stream', content: eventStream } },
    errors: [400, 401, 404],
    handler: async (request, reply, input) => {
      const { id } = input.params();
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
    },
  });

  return {
    tag: { name: 'agent', description: 'Agent runs: invoke, stream, join' },
    routes: [invokeAgent, streamAgent, joinSessionStream],
  };
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
