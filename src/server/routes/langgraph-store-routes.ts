import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  checkMemoryNames,
  InvalidMemoryNameError,
  type MemoryItem,
} from '../../memory-store/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { invalidInput, parseLangGraph, refuseUnsupported } from '../langgraph/langgraph-fields.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const labels = z.array(z.string()).max(8);
const putBody = z.object({
  namespace: labels.min(1),
  key: z.string(),
  value: z.record(z.string(), z.unknown()),
});
const itemBody = z.object({ namespace: labels.min(1), key: z.string() });
const searchBody = z.object({
  namespace_prefix: labels.optional(),
  filter: z.record(z.string(), z.unknown()).optional(),
  query: z.string().max(2000).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});
const namespacesBody = z.object({
  prefix: labels.optional(),
  suffix: labels.optional(),
  max_depth: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
});

/** How many of the owner's items a search or a namespace listing reads at most. */
const readAtMost = 100;

/** A namespace's labels as the memory store's namespace (`["team", "a"]` → `team/a`), checked. */
function namespaceOf(given: readonly string[], field: string): string {
  if (given.some((label) => label.includes('.'))) {
    throw invalidInput(field, 'a label holds no "."');
  }
  const namespace = given.join('/');
  try {
    checkMemoryNames({ namespace });
  } catch (error) {
    if (error instanceof InvalidMemoryNameError) throw invalidInput(field, error.message);
    throw error;
  }
  return namespace;
}

/** A memory item as LangGraph's store Item. */
function itemOf(item: MemoryItem): Record<string, unknown> {
  return {
    namespace: item.namespace.split('/'),
    key: item.key,
    value: item.value,
    created_at: item.updatedAt,
    updated_at: item.updatedAt,
    ...(item.score === undefined ? {} : { score: item.score }),
  };
}

/**
 * LangGraph's store: the caller's long-term memory (`/api/memory`), a namespace array being
 * its segments. Put, get, delete, search (by prefix, top-level value fields, or a query as
 * `/api/memory?query=`) and the namespaces in use. `index`, `ttl` and `refresh_ttl` → 422.
 */
export function langGraphStoreRoutes(context: RouteContext): Route[] {
  const memory = context.runtime.memory;

  /** A name check of the memory store as this protocol's 422. */
  const named = async <T>(work: () => Promise<T>, field: string): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof InvalidMemoryNameError) throw invalidInput(field, error.message);
      throw error;
    }
  };

  const putItem = defineRoute({
    method: 'PUT',
    path: '/store/items',
    scope: 'yeoul:write',
    operationId: 'langGraphPutStoreItem',
    summary: 'LangGraph: store an object under a namespace and key (the caller’s memory)',
    request: { body: putBody },
    responses: { 204: { description: 'stored' } },
    errors: [401, 413, 422],
    handler: async (request, reply) => {
      refuseUnsupported(request.body, { namespace: true, key: true, value: true });
      const body = parseLangGraph(putBody, request.body);
      const namespace = namespaceOf(body.namespace, 'namespace');
      const owner = context.ownerOf(request);
      await named(() => memory.put(owner, namespace, body.key, body.value), 'key');
      return reply.code(204).send();
    },
  });

  const getItem = defineRoute({
    method: 'GET',
    path: '/store/items',
    scope: 'yeoul:read',
    operationId: 'langGraphGetStoreItem',
    summary: 'LangGraph: one item (`namespace` its labels joined by ".")',
    request: {
      query: z.object({
        namespace: z.string(),
        key: z.string(),
        refresh_ttl: z.string().optional(),
      }),
    },
    responses: { 200: { description: 'the item', schema: json } },
    errors: [401, 404, 422],
    handler: async (request) => {
      const query = request.query as Record<string, string | undefined>;
      refuseUnsupported(
        query,
        { namespace: true, key: true, refresh_ttl: true },
        refreshing(query),
      );
      if (query.namespace === undefined || query.key === undefined) {
        throw invalidInput('namespace', 'namespace and key are needed');
      }
      const namespace = namespaceOf(query.namespace.split('.'), 'namespace');
      const { key } = query;
      const owner = context.ownerOf(request);
      const item = await named(() => memory.get(owner, namespace, key), 'key');
      if (item === undefined) {
        throw new HttpError({ status: 404, code: 'not_found', message: `no item "${key}"` });
      }
      return itemOf(item);
    },
  });

  const deleteItem = defineRoute({
    method: 'DELETE',
    path: '/store/items',
    scope: 'yeoul:write',
    operationId: 'langGraphDeleteStoreItem',
    summary: 'LangGraph: delete an item',
    request: { body: itemBody },
    responses: { 204: { description: 'deleted' } },
    errors: [401, 422],
    handler: async (request, reply) => {
      refuseUnsupported(request.body, { namespace: true, key: true });
      const body = parseLangGraph(itemBody, request.body);
      const namespace = namespaceOf(body.namespace, 'namespace');
      const owner = context.ownerOf(request);
      await named(() => memory.delete(owner, namespace, body.key), 'key');
      return reply.code(204).send();
    },
  });

  /** The owner's items under a prefix (newest first, or best first for a query). */
  const itemsUnder = (request: FastifyRequest, prefix: readonly string[], query?: string) => {
    const namespace = prefix.length === 0 ? undefined : namespaceOf(prefix, 'namespace_prefix');
    return memory.search(context.ownerOf(request), {
      ...(namespace === undefined ? {} : { prefix: namespace }),
      ...(query === undefined ? {} : { query }),
      limit: readAtMost,
    });
  };

  const searchItems = defineRoute({
    method: 'POST',
    path: '/store/items/search',
    scope: 'yeoul:read',
    operationId: 'langGraphSearchStoreItems',
    summary: 'LangGraph: items under a namespace prefix, by value fields or a query',
    request: { body: searchBody },
    responses: { 200: { description: 'the items', schema: z.object({ items: z.array(json) }) } },
    errors: [401, 422],
    handler: async (request) => {
      const raw = request.body as Record<string, unknown> | undefined;
      refuseUnsupported(
        raw,
        {
          namespace_prefix: true,
          filter: true,
          query: true,
          limit: true,
          offset: true,
          refresh_ttl: true,
        },
        refreshing(raw),
      );
      const body = parseLangGraph(searchBody, raw);
      const items = await itemsUnder(request, body.namespace_prefix ?? [], body.query);
      const filter = Object.entries(body.filter ?? {});
      const kept = items.filter((item) =>
        filter.every(
          ([field, wanted]) =>
            JSON.stringify((item.value as Record<string, unknown> | null)?.[field]) ===
            JSON.stringify(wanted),
        ),
      );
      const offset = body.offset ?? 0;
      return { items: kept.slice(offset, offset + (body.limit ?? 10)).map(itemOf) };
    },
  });

  const listNamespaces = defineRoute({
    method: 'POST',
    path: '/store/namespaces',
    scope: 'yeoul:read',
    operationId: 'langGraphListStoreNamespaces',
    summary: 'LangGraph: the namespaces of the caller’s items, by prefix, suffix and depth',
    request: { body: namespacesBody },
    responses: {
      200: {
        description: 'the namespaces',
        schema: z.object({ namespaces: z.array(z.array(z.string())) }),
      },
    },
    errors: [401, 422],
    handler: async (request) => {
      refuseUnsupported(request.body, {
        prefix: true,
        suffix: true,
        max_depth: true,
        limit: true,
        offset: true,
      });
      const body = parseLangGraph(namespacesBody, request.body);
      const suffix = body.suffix ?? [];
      const seen = new Map<string, string[]>();
      for (const item of await itemsUnder(request, body.prefix ?? [])) {
        const labels = item.namespace.split('/').slice(0, body.max_depth);
        const tail = labels.slice(labels.length - suffix.length);
        if (suffix.length > 0 && tail.join('/') !== suffix.join('/')) continue;
        seen.set(labels.join('/'), labels);
      }
      const namespaces = [...seen.values()].sort((a, b) => a.join('/').localeCompare(b.join('/')));
      const offset = body.offset ?? 0;
      return { namespaces: namespaces.slice(offset, offset + (body.limit ?? 100)) };
    },
  });

  return [putItem, getItem, deleteItem, searchItems, listNamespaces];
}

/** `refresh_ttl: true` (or "true") is refused: items have no time to live. */
function refreshing(fields: Record<string, unknown> | undefined): string[] {
  const value = fields?.refresh_ttl;
  return value === true || value === 'true' ? ['refresh_ttl'] : [];
}
