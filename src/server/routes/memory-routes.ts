import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InvalidMemoryNameError } from '../../memory-store/index.ts';
import { memoryPutBody } from '../../protocol/index.ts';
import { HttpError } from '../http/http-error.ts';
import { parseWith } from '../http/schemas.ts';
import type { RouteContext } from './route-context.ts';

/** PUT /api/memory/<namespace>/<key>. */

/** GET /api/memory's query string. */
export const memoryListQuery = z.strictObject({
  prefix: z.string().optional(),
  query: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).optional(),
});

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
export function registerMemoryRoutes(app: FastifyInstance, context: RouteContext): void {
  const memory = context.runtime.memory;

  app.get('/api/memory', async (request) => {
    const query = parseWith(memoryListQuery, request.query);
    const items = await memory.search(context.ownerOf(request), query);
    return { items };
  });

  app.put('/api/memory/*', async (request) => {
    const { namespace, key } = itemPath(request);
    const { value } = parseWith(memoryPutBody, request.body ?? {});
    return memory.put(context.ownerOf(request), namespace, key, value);
  });

  app.get('/api/memory/*', async (request) => {
    const { namespace, key } = itemPath(request);
    const item = await memory.get(context.ownerOf(request), namespace, key);
    if (item === undefined) throw notFound(namespace, key);
    return item;
  });

  app.delete('/api/memory/*', async (request, reply) => {
    const { namespace, key } = itemPath(request);
    if (!(await memory.delete(context.ownerOf(request), namespace, key))) {
      throw notFound(namespace, key);
    }
    return reply.code(204).send();
  });
}
