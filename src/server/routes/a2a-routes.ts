import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { defaultGraphName } from '../../agents/index.ts';
import type { Scope } from '../../identity/index.ts';
import { A2aError, a2aCodes, a2aFailureOf, restErrorOf, rpcErrorOf } from '../a2a/a2a-error.ts';
import {
  getParamsSchema,
  listParamsSchema,
  parseParams,
  sendParamsSchema,
  turnOf,
} from '../a2a/a2a-request.ts';
import { a2aTasks } from '../a2a/a2a-tasks.ts';
import { agentCardOf, baseUrlOf } from '../a2a/agent-card.ts';
import { answerRpc, rpcCallOf } from '../a2a/json-rpc.ts';
import { TaskEventStream } from '../a2a/task-events.ts';
import { defineRoute, eventStream, type RouteGroup } from '../http/define-route.ts';
import { errorHeaders, errorResponse, HttpError } from '../http/http-error.ts';
import { insufficientScope } from '../http/insufficient-scope.ts';
import type { RouteContext } from './route-context.ts';

const nameParams = z.object({ name: z.string().describe('a chat graph’s name') });
const taskParams = z.object({ name: z.string(), id: z.string() });
const taskActionParams = z.object({
  name: z.string(),
  task: z.string().describe('the task’s id, then `:cancel` or `:subscribe`'),
});
const anyJson = { type: 'object', additionalProperties: true };
const cardSchema = { 'application/json': anyJson };

/** Errors that keep the contract's shape and status on every A2A path (credentials, sizes, graphs). */
const plainCodes = new Set(['graph_not_found', 'not_a_chat_graph', 'payload_too_large']);

/**
 * A2A: an agent per chat graph. Its card (read without a key) at
 * /a2a/NAME/.well-known/agent-card.json (and chat's, or `?graph=NAME`'s, at
 * /.well-known/agent-card.json); JSON-RPC at POST /a2a/NAME (1.0's methods, and 0.3's
 * answering in 0.3's shapes); HTTP+JSON under /a2a/NAME. Tasks are runs, contexts sessions.
 */
export function a2aRoutes(context: RouteContext): RouteGroup[] {
  const { runtime } = context;
  const tasks = a2aTasks(context);

  /** The chat graph a path names, or 404 `graph_not_found`. */
  const chatGraph = (name: string): { name: string; builtin: boolean } => {
    const entry = runtime.graphs.get(name);
    if (entry === undefined || !entry.chat) {
      throw new HttpError({
        status: 404,
        code: 'graph_not_found',
        message: `there is no chat graph "${name}" (agents: ${runtime.graphs.chatNames().join(', ')})`,
      });
    }
    return { name, builtin: entry.builtin };
  };

  const cardOf = (request: FastifyRequest, name: string) =>
    agentCardOf({
      ...chatGraph(name),
      base: baseUrlOf(runtime.config.publicUrl, request.headers.host),
      secured: runtime.identity.enabled,
      version: context.version,
    });

  const requireScope = (request: FastifyRequest, reply: FastifyReply) => (scope: Scope) => {
    const held = context.identityOf(request).scopes;
    if (!held.has(scope)) throw insufficientScope(reply, scope, held, `A2A ${request.method}`);
  };

  const rootCard = defineRoute({
    method: 'GET',
    path: '/.well-known/agent-card.json',
    public: true,
    operationId: 'getDefaultAgentCard',
    summary:
      'A2A: the agent card of `chat` (`?graph=NAME`: another chat graph’s), read without a key',
    request: { query: z.object({ graph: z.string().optional() }) },
    responses: { 200: { description: 'the agent card', content: cardSchema } },
    errors: [404],
    handler: async (request, _reply, input) =>
      cardOf(request, input.query().graph ?? defaultGraphName),
  });

  const card = defineRoute({
    method: 'GET',
    path: '/:name/.well-known/agent-card.json',
    public: true,
    operationId: 'getAgentCard',
    summary: 'A2A: a chat graph’s agent card, read without a key',
    request: { params: nameParams },
    responses: { 200: { description: 'the agent card', content: cardSchema } },
    errors: [404],
    handler: async (request, _reply, input) => cardOf(request, input.params().name),
  });

  const jsonRpc = defineRoute({
    method: 'POST',
    path: '/:name',
    scope: null,
    operationId: 'a2aJsonRpc',
    summary:
      'A2A JSON-RPC: SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask, and 0.3’s message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe (errors: HTTP 200 with a JSON-RPC error)',
    request: {
      params: nameParams,
      headers: z.object({ 'A2A-Version': z.enum(['1.0', '0.3']).optional() }),
      bodyContent: { 'application/json': anyJson },
    },
    responses: {
      200: {
        description: 'a JSON-RPC response, or (streaming methods) its events',
        content: { 'application/json': anyJson, 'text/event-stream': { type: 'string' } },
      },
    },
    errors: [401, 403, 404],
    handler: async (request, reply, input) => {
      const { name } = input.params();
      chatGraph(name);
      let id: string | number | null = null;
      try {
        const call = rpcCallOf(request.body);
        id = call.id;
        checkVersion(request);
        const result = await answerRpc(
          tasks,
          call,
          name,
          request,
          reply,
          requireScope(request, reply),
        );
        if (result === undefined) return reply;
        return { jsonrpc: '2.0', id, result };
      } catch (error) {
        if (error instanceof HttpError && (error.status === 401 || error.status === 403))
          throw error;
        if (reply.sent || reply.raw.headersSent) {
          request.log.warn({ err: error }, 'an A2A stream failed');
          return reply;
        }
        const rpcId = (error as { rpcId?: string | number | null }).rpcId ?? id;
        return rpcErrorOf(rpcId, a2aFailureOf(error));
      }
    },
  });

  /** HTTP+JSON: the same operations, errors as google.rpc.Status (the group's handler). */
  const send = defineRoute({
    method: 'POST',
    path: '/:name/message::send',
    documentedPath: { path: '/a2a/{name}/message:send', params: nameParams },
    scope: 'yeoul:write',
    operationId: 'a2aSendMessage',
    summary:
      'A2A HTTP+JSON: send a message; the task once it ends or pauses (`returnImmediately`: at once)',
    request: { params: nameParams, bodyContent: { 'application/json': anyJson } },
    responses: { 200: { description: '{task}', content: { 'application/json': anyJson } } },
    errors: [400, 401, 403, 404, 409],
    handler: async (request, reply, input) => {
      const { name } = input.params();
      chatGraph(name);
      checkVersion(request);
      const turn = turnOf(parseParams(sendParamsSchema, request.body));
      return { task: await tasks.send(request, reply, name, turn) };
    },
  });

  const stream = defineRoute({
    method: 'POST',
    path: '/:name/message::stream',
    documentedPath: { path: '/a2a/{name}/message:stream', params: nameParams },
    scope: 'yeoul:write',
    operationId: 'a2aStreamMessage',
    summary:
      'A2A HTTP+JSON: send a message and follow its task: {task}, {artifactUpdate}, {statusUpdate}',
    request: { params: nameParams, bodyContent: { 'application/json': anyJson } },
    responses: { 200: { description: 'text/event-stream', content: eventStream } },
    errors: [400, 401, 403, 404, 409],
    handler: async (request, reply, input) => {
      const { name } = input.params();
      chatGraph(name);
      checkVersion(request);
      const turn = turnOf(parseParams(sendParamsSchema, request.body));
      await tasks.stream(request, reply, name, turn, bareStream(reply));
      return reply;
    },
  });

  const getTask = defineRoute({
    method: 'GET',
    path: '/:name/tasks/:id',
    scope: 'yeoul:read',
    operationId: 'a2aGetTask',
    summary: 'A2A HTTP+JSON: a task (`historyLength` the last messages)',
    request: { params: taskParams, query: z.object({ historyLength: z.string().optional() }) },
    responses: { 200: { description: 'the task', content: { 'application/json': anyJson } } },
    errors: [400, 401, 403, 404],
    handler: async (request, _reply, input) => {
      const { name, id } = input.params();
      chatGraph(name);
      checkVersion(request);
      const query = request.query as Record<string, unknown>;
      const parsed = parseParams(
        getParamsSchema.extend({ historyLength: z.coerce.number().int().min(0).optional() }),
        { ...query, id },
      );
      return tasks.get(request, parsed.id, parsed.historyLength);
    },
  });

  const listTasks = defineRoute({
    method: 'GET',
    path: '/:name/tasks',
    scope: 'yeoul:read',
    operationId: 'a2aListTasks',
    summary:
      'A2A HTTP+JSON: the caller’s tasks, newest first (contextId, status, pageSize, pageToken)',
    request: { params: nameParams, query: z.looseObject({}) },
    responses: {
      200: {
        description: '{tasks, nextPageToken, pageSize, totalSize}',
        content: { 'application/json': anyJson },
      },
    },
    errors: [400, 401, 403, 404],
    handler: async (request, _reply, input) => {
      chatGraph(input.params().name);
      checkVersion(request);
      return tasks.list(request, parseParams(listParamsSchema, request.query));
    },
  });

  const taskAction = defineRoute({
    method: 'POST',
    path: '/:name/tasks/:task',
    documentedPath: { path: '/a2a/{name}/tasks/{task}', params: taskActionParams },
    scope: 'yeoul:write',
    operationId: 'a2aTaskAction',
    summary:
      'A2A HTTP+JSON: POST /tasks/ID:cancel (the task, cancelled) or /tasks/ID:subscribe (its events)',
    request: { params: taskActionParams },
    responses: {
      200: {
        description: 'the cancelled task, or the task’s events',
        content: { 'application/json': anyJson, 'text/event-stream': { type: 'string' } },
      },
    },
    errors: [400, 401, 403, 404, 409],
    handler: async (request, reply, input) => {
      const { name, task } = input.params();
      chatGraph(name);
      checkVersion(request);
      const cut = task.lastIndexOf(':');
      const id = task.slice(0, cut);
      const action = cut < 0 ? '' : task.slice(cut + 1);
      if (action === 'cancel') return tasks.cancel(request, id);
      if (action === 'subscribe') {
        await tasks.subscribe(request, reply, id, bareStream(reply));
        return reply;
      }
      throw new HttpError({
        status: 404,
        code: 'not_found',
        message: `no route POST ${request.url}`,
      });
    },
  });

  return [
    { routes: [rootCard] },
    {
      tag: {
        name: 'a2a',
        description: 'A2A: agent cards, JSON-RPC and HTTP+JSON over sessions and runs',
      },
      prefix: '/a2a',
      setup: (scope) => {
        scope.addContentTypeParser(
          'application/a2a+json',
          { parseAs: 'string' },
          (_request, body, done) => {
            try {
              done(null, body === '' ? undefined : JSON.parse(body as string));
            } catch (error) {
              done(Object.assign(error as Error, { statusCode: 400, a2aParse: true }), undefined);
            }
          },
        );
        scope.setErrorHandler((error, request, reply) => {
          const { status, body } = errorResponse(error, {
            bodyLimit: request.routeOptions.bodyLimit ?? runtime.config.bodyLimit,
          });
          if (status >= 500) request.log.error({ err: error }, 'request failed');
          const parse = isParseError(error);
          if (
            !parse &&
            (status === 401 ||
              status === 403 ||
              status === 405 ||
              status === 415 ||
              plainCodes.has(body.error.code))
          ) {
            context.metrics.errors.inc({ code: body.error.code });
            return reply.code(status).headers(errorHeaders(error)).send(body);
          }
          const failure = parse
            ? a2aFailureOf(
                new A2aError({ rpcCode: a2aCodes.parseError, message: 'the body is not JSON' }),
              )
            : a2aFailureOf(error);
          if (request.method === 'POST' && request.routeOptions.url === '/a2a/:name') {
            return reply.code(200).send(rpcErrorOf(null, failure));
          }
          return reply.code(failure.httpStatus).send(restErrorOf(failure));
        });
      },
      routes: [card, jsonRpc, send, stream, listTasks, getTask, taskAction],
    },
  ];
}

/** `A2A-Version` may be 1.0, 0.3 or absent; another is -32009. */
function checkVersion(request: FastifyRequest): void {
  const version = request.headers['a2a-version'];
  if (version === undefined || version === '' || version === '1.0' || version === '0.3') return;
  throw new A2aError({
    rpcCode: a2aCodes.versionNotSupported,
    message: `A2A-Version ${String(version)} is not supported: 1.0 or 0.3`,
  });
}

/** An HTTP+JSON event stream: each `data:` a bare StreamResponse. */
function bareStream(reply: FastifyReply): TaskEventStream {
  return new TaskEventStream(reply.raw, (result) => result);
}

/** Whether the body could not be read as JSON. */
function isParseError(error: unknown): boolean {
  const fields = error as { code?: string; a2aParse?: boolean; statusCode?: number };
  return (
    fields.a2aParse === true ||
    fields.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    (error instanceof SyntaxError && fields.statusCode === 400)
  );
}
