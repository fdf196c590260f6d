import { z } from 'zod';
import {
  documentListSchema,
  documentsBody,
  documentsCreatedSchema,
  errorResponseSchema,
  evalRunBody,
  evalRunListSchema,
  evalRunSchema,
  evalRunStartedSchema,
  feedbackBody,
  feedbackSavedSchema,
  forkBody,
  forkResponseSchema,
  graphListSchema,
  graphRunBody,
  graphRunResponseSchema,
  historySchema,
  invokeBody,
  invokeResponseSchema,
  memoryItemSchema,
  memoryListSchema,
  memoryPutBody,
  searchBody,
  searchResponseSchema,
  sessionIdSchema,
  sessionListSchema,
  sessionSchema,
  statusResponseSchema,
} from '../../protocol/index.ts';
import { chatCompletionBody } from '../openai/chat-completion-request.ts';
import {
  chatCompletionChunkSchema,
  chatCompletionSchema,
  modelListSchema,
} from '../openai/chat-completion-response.ts';
import { openAiErrorSchema } from '../openai/openai-error.ts';

type Schema = z.ZodType;

const jsonSchema = (schema: Schema, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' });

const json = (schema: Schema) => ({
  content: { 'application/json': { schema: jsonSchema(schema, 'output') } },
});

const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: 'error', ...json(errorResponseSchema) },
    ]),
  );

/** Errors of the OpenAI-compatible API, in OpenAI's shape. */
const openAiErrors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: 'error',
        content: { 'application/json': { schema: jsonSchema(openAiErrorSchema, 'output') } },
      },
    ]),
  );

const sessionPath = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'the session id',
  schema: jsonSchema(sessionIdSchema, 'input'),
};
const graphPath = {
  name: 'name',
  in: 'path',
  required: true,
  description: 'the graph name (GET /api/graphs lists them)',
  schema: { type: 'string' },
};
const documentPath = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'the document id',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};

const memoryPath = [
  {
    name: 'namespace',
    in: 'path',
    required: true,
    description: '1–8 segments of [A-Za-z0-9_.:-]{1,64} joined by /',
    schema: { type: 'string' },
  },
  {
    name: 'key',
    in: 'path',
    required: true,
    description: 'the key (the session id rule)',
    schema: jsonSchema(sessionIdSchema, 'input'),
  },
];

/** One operation: its id, summary, request body and answers. */
function operation(
  operationId: string,
  summary: string,
  responses: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return { operationId, summary, ...extra, responses };
}

const body = (schema: Schema) => ({
  requestBody: {
    required: true,
    content: { 'application/json': { schema: jsonSchema(schema, 'input') } },
  },
});

/**
 * The OpenAPI 3.1 document: request bodies and responses generated from the zod schemas
 * that validate and describe them, path parameters declared, one operation id each —
 * enough for generated clients.
 */
export function openApiDocument(version: string) {
  const ok = (description: string, schema: Schema) => ({ '200': { description, ...json(schema) } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Yeoul',
      version,
      description:
        'Graph-based AI agent server: agent runs, sessions, approvals, documents; an OpenAI-compatible API under /v1 and an MCP server at /mcp.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/api/agent/invoke': {
        post: operation(
          'invokeAgent',
          'Run the agent on a message (or resume a paused run with decisions)',
          {
            ...ok('the answer payload', invokeResponseSchema),
            ...errorResponses(400, 401, 404, 409, 413, 500, 503),
          },
          body(invokeBody),
        ),
      },
      '/api/agent/stream': {
        post: operation(
          'streamAgent',
          'Run the agent and stream its events (Server-Sent Events: step, token, tool-call, tool-result, interrupt, error, done)',
          {
            '200': {
              description: 'text/event-stream; the `done` event carries the invoke payload',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errorResponses(400, 401, 404, 409, 413, 500, 503),
          },
          body(invokeBody),
        ),
      },
      '/api/agent/status': {
        get: operation(
          'getStatus',
          'Server status, model, store and search state',
          ok('status', statusResponseSchema),
        ),
      },
      '/api/graphs': {
        get: operation(
          'listGraphs',
          'The built-in and user graphs, with Mermaid flowcharts',
          ok('graphs', graphListSchema),
        ),
      },
      '/api/graphs/{name}/invoke': {
        post: operation(
          'invokeGraph',
          'Run any graph on a state update, on a new thread or a continued one',
          { ...ok('the run', graphRunResponseSchema), ...errorResponses(400, 401, 404, 409) },
          { parameters: [graphPath], ...body(graphRunBody) },
        ),
      },
      '/api/graphs/{name}/stream': {
        post: operation(
          'streamGraph',
          'Run any graph and stream its events (Server-Sent Events: step, custom, interrupt, done)',
          {
            '200': {
              description: 'text/event-stream; the `done` event carries the invoke answer',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errorResponses(400, 401, 404, 409),
          },
          { parameters: [graphPath], ...body(graphRunBody) },
        ),
      },
      '/api/sessions': {
        get: operation(
          'listSessions',
          'The caller’s sessions, newest first',
          ok('sessions', sessionListSchema),
        ),
      },
      '/api/sessions/{id}': {
        get: operation(
          'getSession',
          'A session’s memory window, summary and pending approvals',
          { ...ok('the session', sessionSchema), ...errorResponses(400, 401, 404) },
          { parameters: [sessionPath] },
        ),
        delete: operation(
          'deleteSession',
          'Delete a session and everything stored for it',
          { '204': { description: 'deleted' }, ...errorResponses(400, 401, 404) },
          { parameters: [sessionPath] },
        ),
      },
      '/api/sessions/{id}/history': {
        get: operation(
          'getSessionHistory',
          'Every stored step of the session, oldest first: node, update, time',
          { ...ok('the steps', historySchema), ...errorResponses(400, 401, 404) },
          { parameters: [sessionPath] },
        ),
      },
      '/api/sessions/{id}/feedback': {
        post: operation(
          'rateSessionAnswer',
          'Rate the session’s last answer 👍 (1) or 👎 (-1), with an optional comment',
          {
            '201': { description: 'rated', ...json(feedbackSavedSchema) },
            ...errorResponses(400, 401, 404, 409),
          },
          { parameters: [sessionPath], ...body(feedbackBody) },
        ),
      },
      '/api/evals': {
        get: operation(
          'listEvalRuns',
          'The caller’s evaluation runs, newest first (at least the latest 100)',
          ok('runs', evalRunListSchema),
        ),
        post: operation(
          'startEvalRun',
          'Run items through a chat graph and score them, in the background',
          {
            '202': { description: 'started', ...json(evalRunStartedSchema) },
            ...errorResponses(400, 401, 413),
          },
          body(evalRunBody),
        ),
      },
      '/api/evals/{id}': {
        get: operation(
          'getEvalRun',
          'An evaluation run: summary, and each item with its scores and session',
          { ...ok('the run', evalRunSchema), ...errorResponses(401, 404) },
          { parameters: [{ ...documentPath, description: 'the run id' }] },
        ),
      },
      '/api/sessions/{id}/stream': {
        get: operation(
          'joinSessionStream',
          'Join the session’s running run: replay after Last-Event-ID, then live',
          {
            '200': {
              description: 'text/event-stream',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errorResponses(400, 401, 404),
          },
          {
            parameters: [
              sessionPath,
              { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
            ],
          },
        ),
      },
      '/api/sessions/{id}/fork': {
        post: operation(
          'forkSession',
          'A new session whose state is this one’s after step atStep (-1: before any)',
          {
            '201': { description: 'forked', ...json(forkResponseSchema) },
            ...errorResponses(400, 401, 404, 409),
          },
          { parameters: [sessionPath], ...body(forkBody) },
        ),
      },
      '/api/sessions/{id}/cancel': {
        post: operation(
          'cancelSessionRun',
          'Stop the session’s run (or abandon an interrupted or paused one)',
          { '202': { description: 'stopped' }, ...errorResponses(400, 401, 404) },
          { parameters: [sessionPath] },
        ),
      },
      '/api/sessions/{id}/interrupts': {
        delete: operation(
          'denyPendingCalls',
          'Deny every tool call waiting for approval; the run goes on to its answer',
          {
            ...ok('the answer payload', invokeResponseSchema),
            ...errorResponses(400, 401, 404, 409),
          },
          { parameters: [sessionPath] },
        ),
      },
      '/api/documents': {
        post: operation(
          'addDocuments',
          'Add documents (JSON) or upload files (multipart: file, id?, title?, metadata?)',
          {
            '201': { description: 'added', ...json(documentsCreatedSchema) },
            ...errorResponses(400, 401, 413, 415, 503),
          },
          {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: jsonSchema(documentsBody, 'input') },
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    required: ['file'],
                    properties: {
                      file: { type: 'string', format: 'binary' },
                      id: { type: 'string' },
                      title: { type: 'string' },
                      metadata: { type: 'string', description: 'a JSON object' },
                    },
                  },
                },
              },
            },
          },
        ),
        get: operation(
          'listDocuments',
          'The stored documents',
          ok('documents', documentListSchema),
        ),
      },
      '/api/documents/{id}': {
        delete: operation(
          'deleteDocument',
          'Delete a document and its passages',
          { '204': { description: 'deleted' }, ...errorResponses(401, 404) },
          { parameters: [documentPath] },
        ),
      },
      '/api/memory': {
        get: operation(
          'listMemory',
          "The owner's long-term memory items: newest first, or best first with a query",
          { ...ok('items', memoryListSchema), ...errorResponses(400, 401) },
          {
            parameters: [
              {
                name: 'prefix',
                in: 'query',
                description: 'a namespace (whole segments)',
                schema: { type: 'string' },
              },
              {
                name: 'query',
                in: 'query',
                description: 'keyword (and vector) search',
                schema: { type: 'string' },
              },
              {
                name: 'limit',
                in: 'query',
                description: 'default 20, at most 100',
                schema: { type: 'integer', minimum: 1 },
              },
            ],
          },
        ),
      },
      '/api/memory/{namespace}/{key}': {
        put: operation(
          'putMemory',
          'Store a JSON value (at most 65,536 bytes as JSON) under a namespace and key',
          { ...ok('the stored item', memoryItemSchema), ...errorResponses(400, 401, 413) },
          { parameters: memoryPath, ...body(memoryPutBody) },
        ),
        get: operation(
          'getMemory',
          'One memory item',
          { ...ok('the item', memoryItemSchema), ...errorResponses(400, 401, 404) },
          { parameters: memoryPath },
        ),
        delete: operation(
          'deleteMemory',
          'Delete a memory item',
          { '204': { description: 'deleted' }, ...errorResponses(400, 401, 404) },
          { parameters: memoryPath },
        ),
      },
      '/api/search': {
        post: operation(
          'searchKnowledge',
          'The passages that best answer a query',
          { ...ok('hits, best first', searchResponseSchema), ...errorResponses(400, 401, 503) },
          body(searchBody),
        ),
      },
      '/v1/models': {
        get: operation('listModels', 'OpenAI-compatible: the graphs as models', {
          ...ok('the models', modelListSchema),
          ...openAiErrors(401),
        }),
      },
      '/v1/chat/completions': {
        post: operation(
          'createChatCompletion',
          'OpenAI-compatible chat completion (stream: true for chat.completion.chunk Server-Sent Events ending with data: [DONE]). With x-session-id the session’s memory is used and only the last user message is new; without it the messages are the whole conversation and nothing is stored.',
          {
            '200': {
              description: 'a chat.completion, or (stream: true) chat.completion.chunk events',
              content: {
                'application/json': { schema: jsonSchema(chatCompletionSchema, 'output') },
                'text/event-stream': { schema: jsonSchema(chatCompletionChunkSchema, 'output') },
              },
            },
            ...openAiErrors(400, 401, 404, 409, 413, 500, 503),
          },
          {
            parameters: [
              {
                name: 'x-session-id',
                in: 'header',
                required: false,
                description: 'keep the conversation in this session (server-side memory)',
                schema: jsonSchema(sessionIdSchema, 'input'),
              },
            ],
            ...body(chatCompletionBody),
          },
        ),
      },
      '/mcp': {
        post: operation(
          'mcp',
          'MCP (Model Context Protocol) over Streamable HTTP, stateless: JSON-RPC requests for the tools ask {message, sessionId?} and search_knowledge {query, k?}',
          {
            '200': {
              description:
                'a JSON-RPC answer, as JSON or Server-Sent Events (with progress notifications)',
              content: {
                'application/json': { schema: { type: 'object' } },
                'text/event-stream': { schema: { type: 'string' } },
              },
            },
            ...errorResponses(401),
          },
          {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: { type: 'object', description: 'a JSON-RPC message' },
                },
              },
            },
          },
        ),
      },
      '/healthz': {
        get: {
          operationId: 'health',
          security: [],
          responses: { '200': { description: 'alive' } },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          security: [],
          responses: {
            '200': {
              description: 'Prometheus text format',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}
