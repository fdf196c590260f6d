import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InvalidMemoryNameError } from '../../memory-store/index.ts';
import {
  memoryItemSchema,
  memoryListSchema,
  memoryPutBody,
  sessionIdSchema,
} from '../../protocol/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from './route-context.ts';

/** GET /api/memory's query string. */
export const memoryListQuery = z.strictObject({
  prefix: z.string().describe('a namespace (whole segments)').optional(),
  query: z.string().max(2000).describe('keyword (and vector) search').optional(),
  limit: z.coerce.number().int().min(1).describe('default 20, at most 100').optional(),
});

/** An item's path as /openapi.json shows it; `itemPath` splits Fastify's `*` into the two. */
const itemDocumentedPath = {
  path: '/api/memory/{namespace}/{key}',
  params: z.object({
    namespace: z.string().describe('1–8 segments of [A-Za-z0-9_.:-]{1,64} joined by /'),
    key: sessionIdSchema.describe('the key (the session id rule)'),
  }),
};

/** The namespace and key of `/api/memory/<namespace>/<key>` (the last segment is the key). */
function itemPath(request: FastifyRequest): { namespace: string; key: string } {
  const path = (request.params as { '*'?: string })['*'] ?? '';
  const slash = path.lastIndexOf('/');
  if (slash <= 0) {
    throw new InvalidMemoryNameError({
      problems: [
        `path: "${path}" is not <namespace>/<key> (a namespace of 1–8 segments, then a key)`,
      ],
    });
  }
  return { namespace: path.slice(0, slash), key: path.slice(slash + 1) };
}

const notFound = (namespace: string, key: string) =>
  new HttpError({
    status: 404,
    code: 'not_found',
    message: `no memory item "${key}" in namespace "${namespace}"`,
  });

/**
 * The long-term memory of the request's owner (from its API key, never from the body):
 * `GET /api/memory?prefix&query&limit`, and `PUT`, `GET`, `DELETE /api/memory/<namespace>/<key>`.
 * Another owner's item answers 404, as if it did not exist.
 */
export function memoryRoutes(context: RouteContext): RouteGroup {
  const memory = context.runtime.memory;

  const listMemory = defineRoute({
    method: 'GET',
    path: '/api/memory',
    scope: 'yeoul:read',
    operationId: 'listMemory',
    summary: "The owner's long-term memory items: newest first, or best first with a query",
    request: { query: memoryListQuery },
    responses: { 200: { description: 'items', schema: memoryListSchema } },
    errors: [400, 401],
    handler: async (request, _reply, input) => {
      const query = input.query();
      const items = await memory.search(context.ownerOf(request), query);
      return { items };
    },
  });

  const putMemory = defineRoute({
    method: 'PUT',
    path: '/api/memory/*',
    scope: 'yeoul:write',
    documentedPath: itemDocumentedPath,
    operationId: 'putMemory',
    summary: 'Store a JSON value (at most 65,536 bytes as JSON) under a namespace and key',
    request: { body: memoryPutBody, emptyBody: {} },
    responses: { 200: { description: 'the stored item', schema: memoryItemSchema } },
    errors: [400, 401, 413],
    handler: async (request, _reply, input) => {
      const { namespace, key } = itemPath(request);
      const { value } = input.body();
      return memory.put(context.ownerOf(request), namespace, key, value);
    },
  });

  const getMemory = defineRoute({
    method: 'GET',
    path: '/api/memory/*',
    scope: 'yeoul:read',
    documentedPath: itemDocumentedPath,
    operationId: 'getMemory',
    summary: 'One memory item',
    responses: { 200: { description: 'the item', schema: memoryItemSchema } },
    errors: [400, 401, 404],
    handler: async (request) => {
      const { namespace, key } = itemPath(request);
      const item = await memory.get(context.ownerOf(request), namespace, key);
      if (item === undefined) throw notFound(namespace, key);
      return item;
    },
  });

  const deleteMemory = defineRoute({
    method: 'DELETE',
    path: '/api/memory/*',
    scope: 'yeoul:write',
    documentedPath: itemDocumentedPath,
    operationId: 'deleteMemory',
    summary: 'Delete a memory item',
    responses: { 204: { description: 'deleted' } },
    errors: [400, 401, 404],
    handler: async (request, reply) => {
      const { namespace, key } = itemPath(request);
      if (!(await memory.delete(context.ownerOf(request), namespace, key))) {
        throw notFound(namespace, key);
      }
      return reply.code(204).send();
    },
  });

  return {
    tag: { name: 'memory', description: 'Long-term memory of the key’s owner' },
    routes: [listMemory, putMemory, getMemory, deleteMemory],
  };
}
