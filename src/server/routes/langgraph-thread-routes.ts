import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createId } from '../../core/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { parseLangGraph, refuseUnsupported } from '../langgraph/langgraph-fields.ts';
import {
  approvalsOf,
  forkPointsOf,
  ownedThread,
  threadNotFound,
  threadView,
} from '../langgraph/langgraph-threads.ts';
import { stateAt } from '../langgraph/langgraph-views.ts';
import { deleteSession } from '../sessions/delete-session.ts';
import { forkSession } from '../sessions/fork-session.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const threadParams = z.object({ thread_id: z.string().min(1).max(200) });
const threadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'letters, digits, _ and -');
const graphMetadata = z.object({
  graph_id: z.string().optional(),
  assistant_id: z.string().optional(),
});

const createBody = z.object({
  thread_id: threadIdSchema.optional(),
  if_exists: z.enum(['raise', 'do_nothing']).optional(),
  metadata: graphMetadata.optional(),
});
const searchBody = z.object({
  metadata: graphMetadata.optional(),
  ids: z.array(z.string()).max(1000).optional(),
  status: z.enum(['idle', 'busy', 'interrupted', 'error']).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
  sort_by: z.enum(['thread_id', 'created_at', 'updated_at']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
});
const historyBody = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  before: z
    .object({
      checkpoint_id: z.string().optional(),
      configurable: z.object({ checkpoint_id: z.string().optional() }).optional(),
    })
    .optional(),
});
const metadataFields = { graph_id: true, assistant_id: true } as const;

/**
 * LangGraph's threads: the caller's sessions. Create (an empty session, listed at once),
 * get, delete, search, count, copy (a fork at the latest step), the state (now or at a fork
 * point) and the history of fork points, newest first.
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
      refuseUnsupported(request.body, {
        thread_id: true,
        if_exists: true,
        metadata: metadataFields,
      });
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
      await runtime.sessions.claim(threadId, owner, '', entry?.builtin ? undefined : graph);
      // The session's thread exists at once (empty), so that it is listed and read as one.
      await (await runtime.runner.threadGraph(threadId)).updateState(threadId, {});
      return threadView(context, owner, threadId);
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
      metadata: metadataFields,
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
        ([key, value]) => value === undefined || metadata[key] === value,
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
      return threadView(context, owner, fork.sessionId);
    },
  });

  /** The thread's state at a fork point (the latest when none is named). */
  const stateOf = async (request: FastifyRequest, threadId: string, step?: string) => {
    await ownedThread(context, request, threadId);
    const points = await forkPointsOf(context, threadId);
    const index =
      step === undefined ? points.length - 1 : points.findIndex((p) => String(p.step) === step);
    const point = points[index];
    if (point === undefined) {
      throw new HttpError({ status: 404, code: 'not_found', message: `no checkpoint "${step}"` });
    }
    const latest = index === points.length - 1;
    const pending = latest ? await approvalsOf(context, threadId) : [];
    return stateAt(threadId, point, points[index - 1]?.step, pending);
  };

  const getState = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/state',
    scope: 'yeoul:read',
    operationId: 'langGraphGetThreadState',
    summary: 'LangGraph: the thread’s state at its latest fork point',
    request: { params: threadParams },
    responses: { 200: { description: 'the state', schema: json } },
    errors: [401, 404],
    handler: (request, _reply, input) => stateOf(request, input.params().thread_id),
  });

  const getStateAt = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/state/:checkpoint_id',
    scope: 'yeoul:read',
    operationId: 'langGraphGetThreadStateAt',
    summary: 'LangGraph: the thread’s state at a fork point (a step of its history)',
    request: { params: threadParams.extend({ checkpoint_id: z.string().min(1).max(40) }) },
    responses: { 200: { description: 'the state', schema: json } },
    errors: [401, 404],
    handler: (request, _reply, input) => {
      const { thread_id: threadId, checkpoint_id: step } = input.params();
      return stateOf(request, threadId, step);
    },
  });

  const getHistory = defineRoute({
    method: 'POST',
    path: '/threads/:thread_id/history',
    scope: 'yeoul:read',
    operationId: 'langGraphThreadHistory',
    summary: 'LangGraph: the states at the thread’s fork points, newest first',
    request: { params: threadParams, body: historyBody },
    responses: { 200: { description: 'the states', schema: z.array(json) } },
    errors: [401, 404, 422],
    handler: async (request, _reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      refuseUnsupported(request.body, {
        limit: true,
        before: {
          checkpoint_id: true,
          configurable: { checkpoint_id: true, thread_id: true, checkpoint_ns: true },
          thread_id: true,
          checkpoint_ns: true,
        },
      });
      const body = parseLangGraph(historyBody, request.body);
      const points = await forkPointsOf(context, threadId);
      const before = body.before?.checkpoint_id ?? body.before?.configurable?.checkpoint_id;
      const pending = await approvalsOf(context, threadId);
      const states = points.map((point, index) =>
        stateAt(
          threadId,
          point,
          points[index - 1]?.step,
          index === points.length - 1 ? pending : [],
        ),
      );
      const kept =
        before === undefined
          ? states
          : states.filter((_state, index) => (points[index]?.step ?? 0) < Number(before));
      return kept.reverse().slice(0, body.limit ?? 10);
    },
  });

  return [
    createThread,
    searchThreads,
    countThreads,
    getThread,
    deleteThread,
    copyThread,
    getState,
    getStateAt,
    getHistory,
  ];
}
