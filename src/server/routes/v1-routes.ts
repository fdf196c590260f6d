import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AgentResponse, validateInput } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { onBusyModes, onBusySchema, sessionIdSchema } from '../../protocol/index.ts';
import { defineRoute, type RouteGroup, type RouteInput } from '../http/define-route.ts';
import { errorHeaders, HttpError } from '../http/http-error.ts';
import { chatCompletionBody, v1TurnOf } from '../openai/chat-completion-request.ts';
import {
  chatCompletionChunkSchema,
  chatCompletionSchema,
  completionOf,
  modelList,
  modelListSchema,
} from '../openai/chat-completion-response.ts';
import { CompletionStream } from '../openai/completion-stream.ts';
import { openAiError, openAiErrorSchema } from '../openai/openai-error.ts';
import { createV1TurnRunner } from '../openai/v1-turn-runner.ts';
import type { OnBusy } from '../runs/apply-on-busy.ts';
import { approvalNotice } from '../runs/approval-notice.ts';
import { arrivalOf } from '../runs/run-request.ts';
import { chatGraphNames } from '../runtime/graph-names.ts';
import { conversationsRoutes } from './conversations-routes.ts';
import { responsesRoutes } from './responses-routes.ts';
import type { RouteContext } from './route-context.ts';

const methods = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;

/**
 * The OpenAI-compatible API under /v1: GET /v1/models (one model per graph) and POST
 * /v1/chat/completions, plain or streamed. With `x-session-id` the session's stored
 * memory is used and only the last user message is new; without it the messages are the
 * whole conversation, run on an in-memory store and forgotten afterwards — unless the run
 * pauses for approval: then it is kept as a session of the caller, to be decided. Errors
 * come in OpenAI's shape.
 */
export function v1Routes(context: RouteContext): RouteGroup {
  const { runtime } = context;
  const run = createV1TurnRunner(context);
  const created = Math.floor(context.startedAt / 1000);

  const prepare = (
    request: FastifyRequest,
    input: RouteInput<{ body: typeof chatCompletionBody }>,
  ) => {
    const body = input.body();
    const turn = v1TurnOf(body, chatGraphNames(runtime));
    const problem = validateInput(turn.message, runtime.model.settings.maxInputTokens);
    if (problem) {
      throw new HttpError({
        status: problem.code === 'input_too_long' ? 413 : 400,
        code: problem.code,
        message: `messages (the last one): ${problem.message}`,
      });
    }
    const header = request.headers['x-session-id'];
    const sessionId =
      header === undefined
        ? undefined
        : parseSessionHeader(Array.isArray(header) ? header[0] : header);
    const onBusy = parseOnBusyHeader(request.headers['x-yeoul-on-busy']);
    const identity = {
      id: `chatcmpl-${createId()}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    return { body, turn: onBusy === undefined ? turn : { ...turn, onBusy }, sessionId, identity };
  };

  const listModels = defineRoute({
    method: 'GET',
    path: '/models',
    scope: 'yeoul:read',
    operationId: 'listModels',
    summary: 'OpenAI-compatible: the graphs as models',
    responses: { 200: { description: 'the models', schema: modelListSchema } },
    errors: [401],
    handler: async () => modelList(created, chatGraphNames(runtime)),
  });

  const createChatCompletion = defineRoute({
    method: 'POST',
    path: '/chat/completions',
    scope: 'yeoul:write',
    operationId: 'createChatCompletion',
    summary:
      'OpenAI-compatible chat completion (stream: true for chat.completion.chunk Server-Sent Events ending with data: [DONE]). With x-session-id the session’s memory is used and only the last user message is new; without it the messages are the whole conversation and nothing is stored.',
    request: {
      headers: z.object({
        'x-session-id': sessionIdSchema
          .describe('keep the conversation in this session (server-side memory)')
          .optional(),
        'x-yeoul-on-busy': onBusySchema
          .describe(
            'with x-session-id: what the message does while the session has a run going (enqueue, reject, interrupt, rollback)',
          )
          .optional(),
      }),
      body: chatCompletionBody,
    },
    responses: {
      200: {
        description: 'a chat.completion, or (stream: true) chat.completion.chunk events',
        schema: chatCompletionSchema,
        content: { 'text/event-stream': chatCompletionChunkSchema },
      },
    },
    errors: [400, 401, 404, 409, 413, 429, 500, 503],
    handler: async (request, reply, input) => {
      const { body, turn, sessionId, identity } = prepare(request, input);
      const controller = new AbortController();
      const leave = () => controller.abort(new Error('the client went away'));
      if (!body.stream) {
        reply.raw.on('close', () => {
          if (!reply.raw.writableEnded) leave();
        });
        const outcome = await run(request, turn, sessionId, {
          signal: controller.signal,
          streamTokens: false,
          arrivedAt: arrivalOf(reply),
        });
        return completionOf(
          identity,
          contentOf(outcome.payload, outcome.sessionId),
          outcome.payload,
          outcome.sessionId,
        );
      }
      // Headers go out with the run's first event: a request refused before its run
      // starts (a pending approval, a busy session) still gets its HTTP status.
      // The ops loop may write an answer more than once: its last one is sent whole.
      const tokens = runtime.graphs.get(turn.graph)?.handoff.evaluate !== true;
      const stream = new CompletionStream(reply.raw, identity, tokens);
      let finished = false;
      const open = () => {
        if (stream.isOpen) return;
        reply.hijack();
        stream.open(request.id);
        // Closing a stream is how OpenAI clients stop a completion: stop the run.
        reply.raw.on('close', () => {
          if (!finished) leave();
          stream.close();
        });
      };
      try {
        const outcome = await run(request, turn, sessionId, {
          signal: controller.signal,
          streamTokens: tokens,
          arrivedAt: arrivalOf(reply),
          onEvent: (entry) => {
            open();
            stream.event(entry);
          },
        });
        finished = true;
        open();
        stream.finish(
          contentOf(outcome.payload, outcome.sessionId),
          outcome.payload,
          outcome.sessionId,
          body.stream_options?.include_usage === true,
        );
      } catch (error) {
        finished = true;
        if (!stream.isOpen) throw error;
        request.log.warn({ err: error }, 'completion stream ended with an error');
        stream.fail(openAiError(error).body);
      }
    },
  });

  return {
    tag: { name: 'openai', description: 'The OpenAI-compatible API: models and chat completions' },
    prefix: '/v1',
    errorBody: openAiErrorSchema,
    // Errors, and paths /v1 does not have, answer in OpenAI's shape.
    setup: (v1) => {
      v1.setErrorHandler((error, request, reply) => {
        const { status, body } = openAiError(error, {
          bodyLimit: request.routeOptions.bodyLimit ?? runtime.config.bodyLimit,
        });
        if (status >= 500) request.log.error({ err: error }, 'request failed');
        context.metrics.errors.inc({ code: body.error.code ?? 'internal_error' });
        void reply.code(status).headers(errorHeaders(error)).send(body);
      });
      v1.setNotFoundHandler((request, reply) => notFound(v1, request, reply));
    },
    routes: [
      listModels,
      createChatCompletion,
      ...responsesRoutes(context, run),
      ...conversationsRoutes(context),
    ],
  };
}

/** The answer, with what waits for approval and how to decide when the run paused. */
function contentOf(payload: AgentResponse, sessionId: string | null): string {
  if (payload.status !== 'interrupted' || sessionId === null) return payload.response;
  return `${payload.response}\n\n${approvalNotice(payload, sessionId)}`;
}

/** `x-yeoul-on-busy`: what the message does when the session is busy (only with `x-session-id`). */
function parseOnBusyHeader(value: string | string[] | undefined): OnBusy | undefined {
  if (value === undefined) return undefined;
  const parsed = onBusySchema.safeParse(Array.isArray(value) ? value[0] : value);
  if (parsed.success) return parsed.data;
  throw new HttpError({
    status: 400,
    code: 'invalid_request',
    message: `x-yeoul-on-busy: one of ${onBusyModes.join(', ')}`,
    details: { param: 'x-yeoul-on-busy' },
  });
}

function parseSessionHeader(value: string | undefined): string {
  const parsed = sessionIdSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new HttpError({
    status: 400,
    code: 'invalid_request',
    message: 'x-session-id: a session id is 1–128 letters, digits and _ . : -',
    details: { param: 'x-session-id' },
  });
}

/** 405 (with `Allow`) when the path exists for other methods, else 404, in OpenAI's shape. */
function notFound(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = methods.filter(
    (method) => method !== request.method && app.findRoute({ method, url: path }) !== null,
  );
  const status = allowed.length > 0 ? 405 : 404;
  if (allowed.length > 0) void reply.header('allow', allowed.join(', '));
  const message =
    allowed.length > 0
      ? `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`
      : `no route ${request.method} ${path}`;
  return reply.code(status).send({
    error: {
      message,
      type: 'invalid_request_error',
      param: null,
      code: allowed.length > 0 ? 'method_not_allowed' : 'not_found',
    },
  });
}
