import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createId } from '../../core/index.ts';
import { sessionIdSchema } from '../../protocol/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { parseLangGraph, refuseUnsupported } from '../langgraph/langgraph-fields.ts';
import {
  forkPointsOf,
  mergeThreadMetadata,
  ownedThread,
  threadMetadataOf,
  threadNotFound,
  threadView,
} from '../langgraph/langgraph-threads.ts';
import { threadOf } from '../langgraph/langgraph-views.ts';
import { deleteSession } from '../sessions/delete-session.ts';
import { forkSession } from '../sessions/fork-session.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const threadParams = z.object({ thread_id: z.string().min(1).max(200) });
/** A thread's metadata: string values (as an OpenAI conversation's, the same session's). */
const threadMetadata = z
  .record(z.string().min(1).max(64), z.string().max(512))
  .refine((record) => Object.keys(record).length <= 16, 'at most 16 keys');

const createBody = z.object({
  thread_id: sessionIdSchema.optional(),
  if_exists: z.enum(['raise', 'do_nothing']).optional(),
  metadata: threadMetadata.optional(),
});
const searchBody = z.object({
  metadata: z.record(z.string(), z.unknown()).optional(),
  ids: z.array(z.string()).max(1000).optional(),
  status: z.enum(['idle', 'busy', 'interrupted', 'error']).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
  sort_by: z.enum(['thread_id', 'created_at', 'updated_at']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
});
const patchBody = z.object({ metadata: threadMetadata });

/**
 * LangGraph's threads: the caller's sessions. Create (an empty session, listed at once),
 * get, delete, search, count and copy (a fork at the latest step).
 */
export function langGraphThreadRoutes(context: RouteContext): Route[] {
  const { runtime } = context;

  const createThread = defineRoute({
    method: 'POST',
    path: '/threads',
    scope: 'yeoul:write',
    operationId: 'langGraphCreateThread',
    summary: 'LangGraph: a new thread (a session of the caller, with no messages yet)',
    request: { body: createBody },
    responses: { 200: { description: 'the thread', schema: json } },
    errors: [401, 404, 409, 422],
    handler: async (request) => {
      refuseUnsupported(request.body, { thread_id: true, if_exists: true, metadata: true });
      const body = parseLangGraph(createBody, request.body);
      const owner = context.ownerOf(request);
      const threadId = body.thread_id ?? createId();
      const holder = await runtime.sessions.ownerOf(threadId);
      // Another owner's id is refused as unknown: nothing is created.
      if (holder !== undefined && holder !== owner) throw threadNotFound(threadId);
      if (holder !== undefined) {
        if (body.if_exists === 'do_nothing') return threadView(context, owner, threadId);
        throw new HttpError({
          status: 409,
          code: 'thread_exists',
          message: `thread "${threadId}" already exists`,
        });
      }
      const graph = body.metadata?.graph_id ?? body.metadata?.assistant_id;
      const entry = graph === undefined ? undefined : runtime.graphs.get(graph);
      if (graph !== undefined && entry === undefined) {
        throw new HttpError({ status: 404, code: 'not_found', message: `no assistant "${graph}"` });
      }
      const chosen = entry === undefined || entry.builtin ? undefined : entry;
      await runtime.sessions.claim(threadId, owner, '', chosen?.name);
      // The session's thread exists at once (empty), so that it is listed and read as one.
      const thread = chosen?.handoff.thread ?? (await runtime.runner.threadGraph(threadId));
      await thread.updateState(threadId, {});
      const { graph_id: _graph, assistant_id: _assistant, ...given } = body.metadata ?? {};
      if (Object.keys(given).length > 0) await mergeThreadMetadata(context, owner, threadId, given);
      // A new thread: no run, nothing pending, only what was just written.
      return threadOf({
        threadId,
        createdAt: Date.now(),
        state: await thread.getState(threadId),
        busy: false,
        pending: [],
        graph: chosen?.name,
        metadata: given,
      });
    },
  });

  const getThread = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id',
    scope: 'yeoul:read',
    operationId: 'langGraphGetThread',
    summary: 'LangGraph: one thread, with its values and pending interrupts',
    request: { params: threadParams },
    responses: { 200: { description: 'the thread', schema: json } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      return threadView(context, context.ownerOf(request), threadId);
    },
  });

  const patchThread = defineRoute({
    method: 'PATCH',
    path: '/threads/:thread_id',
    scope: 'yeoul:write',
    operationId: 'langGraphPatchThread',
    summary: 'LangGraph: merge metadata into the thread’s (its OpenAI conversation’s too)',
    request: { params: threadParams, body: patchBody },
    responses: { 200: { description: 'the thread', schema: json } },
    errors: [401, 404, 422],
    handler: async (request, _reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      refuseUnsupported(request.body, { metadata: true });
      const body = parseLangGraph(patchBody, request.body);
      const owner = context.ownerOf(request);
      const { graph_id: _graph, assistant_id: _assistant, ...given } = body.metadata;
      await mergeThreadMetadata(context, owner, threadId, given);
      return threadView(context, owner, threadId);
    },
  });

  const deleteThread = defineRoute({
    method: 'DELETE',
    path: '/threads/:thread_id',
    scope: 'yeoul:write',
    operationId: 'langGraphDeleteThread',
    summary: 'LangGraph: delete the thread (as DELETE /api/sessions/:id)',
    request: { params: threadParams },
    responses: { 204: { description: 'deleted' } },
    errors: [401, 404],
    handler: async (request, reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      if (runtime.runner.isRunning(threadId)) await runtime.runner.cancel(threadId);
      else await context.cancelElsewhere(threadId);
      await deleteSession(runtime, threadId);
      return reply.code(204).send();
    },
  });

  /** The caller's threads a search body picks, newest first (or as it sorts). */
  const search = async (request: FastifyRequest) => {
    refuseUnsupported(request.body, {
      metadata: true,
      ids: true,
      status: true,
      limit: true,
      offset: true,
      sort_by: true,
      sort_order: true,
    });
    const body = parseLangGraph(searchBody, request.body);
    const owner = context.ownerOf(request);
    const ids = body.ids === undefined ? undefined : new Set(body.ids);
    const sessions = (await runtime.sessions.owned(owner)).filter(
      (session) => ids === undefined || ids.has(session.sessionId),
    );
    const views = [];
    for (const session of sessions) {
      const view = await threadView(context, owner, session.sessionId, session.createdAt);
      const metadata = view.metadata as Record<string, unknown>;
      const wanted = Object.entries(body.metadata ?? {}).every(
        ([key, value]) =>
          value === undefined || JSON.stringify(metadata[key]) === JSON.stringify(value),
      );
      if (wanted && (body.status === undefined || view.status === body.status)) views.push(view);
    }
    const key = body.sort_by ?? 'created_at';
    const order = body.sort_order === 'asc' ? 1 : -1;
    views.sort((a, b) => order * String(a[key]).localeCompare(String(b[key])));
    return { body, views };
  };

  const searchThreads = defineRoute({
    method: 'POST',
    path: '/threads/search',
    scope: 'yeoul:read',
    operationId: 'langGraphSearchThreads',
    summary: 'LangGraph: the caller’s threads by metadata, ids or status (newest first)',
    request: { body: searchBody },
    responses: { 200: { description: 'the threads', schema: z.array(json) } },
    errors: [401, 422],
    handler: async (request) => {
      const { body, views } = await search(request);
      const offset = body.offset ?? 0;
      return views.slice(offset, offset + (body.limit ?? 10));
    },
  });

  const countThreads = defineRoute({
    method: 'POST',
    path: '/threads/count',
    scope: 'yeoul:read',
    operationId: 'langGraphCountThreads',
    summary: 'LangGraph: how many threads a search finds',
    request: { body: searchBody },
    responses: { 200: { description: 'the count', schema: z.number() } },
    errors: [401, 422],
    handler: async (request) => (await search(request)).views.length,
  });

  const copyThread = defineRoute({
    method: 'POST',
    path: '/threads/:thread_id/copy',
    scope: 'yeoul:write',
    operationId: 'langGraphCopyThread',
    summary: 'LangGraph: a new thread with the same state (a fork at the latest step)',
    request: { params: threadParams },
    responses: { 200: { description: 'the new thread', schema: json } },
    errors: [401, 404, 409],
    handler: async (request, _reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      const owner = context.ownerOf(request);
      const latest = (await forkPointsOf(context, threadId)).at(-1);
      if (latest === undefined) throw threadNotFound(threadId);
      const fork = await forkSession(runtime, { from: threadId, atStep: latest.step, owner });
      const metadata = await threadMetadataOf(context, threadId);
      if (Object.keys(metadata).length > 0) {
        await mergeThreadMetadata(context, owner, fork.sessionId, metadata);
      }
      return threadView(context, owner, fork.sessionId);
    },
  });

  return [
    createThread,
    searchThreads,
    countThreads,
    getThread,
    patchThread,
    deleteThread,
    copyThread,
  ];
}
