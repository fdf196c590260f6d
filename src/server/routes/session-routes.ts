import type { FastifyRequest } from 'fastify';
import { defaultGraphName, isSessionThread } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { anonymousOwner } from '../../identity/index.ts';
import {
  forkBody,
  forkResponseSchema,
  historySchema,
  invokeResponseSchema,
  sessionListSchema,
  sessionSchema,
} from '../../protocol/index.ts';
import { defineRoute, type RouteGroup, type RouteInput } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { sessionParams } from '../http/schemas.ts';
import { cancelPausedRuns } from '../runs/cancel-paused-runs.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import { deleteSession as deleteSessionData } from '../sessions/delete-session.ts';
import { forkSession } from '../sessions/fork-session.ts';
import { notFound } from '../sessions/session-store.ts';
import { pruneSessionsRoute } from './prune-route.ts';
import type { RouteContext } from './route-context.ts';

/**
 * GET /api/sessions, GET and DELETE /api/sessions/:id, GET /api/sessions/:id/history,
 * POST /api/sessions/:id/fork, POST /api/sessions/:id/cancel,
 * DELETE /api/sessions/:id/interrupts and POST /api/sessions/prune.
 */
export function sessionRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;
  const runner = runtime.runner;

  /** The session id of the path, checked to be the caller's. */
  const ownedSession = async (
    request: FastifyRequest,
    input: RouteInput<{ params: typeof sessionParams }>,
  ) => {
    const { id } = input.params();
    await runtime.sessions.check(id, context.ownerOf(request));
    return id;
  };

  const listSessions = defineRoute({
    method: 'GET',
    path: '/api/sessions',
    scope: 'yeoul:read',
    operationId: 'listSessions',
    summary: 'The caller’s sessions, newest first',
    responses: { 200: { description: 'sessions', schema: sessionListSchema } },
    handler: async (request) => {
      const owner = context.ownerOf(request);
      const threads = new Map(
        (await runtime.checkpointer.listThreads()).map((thread) => [thread.threadId, thread]),
      );
      const registered = await runtime.sessions.owned(owner);
      const sessions = registered.flatMap((session) => {
        const thread = threads.get(session.sessionId);
        if (thread === undefined) return [];
        return [
          {
            sessionId: session.sessionId,
            title: session.title,
            graph: session.graph,
            status: thread.status,
            updatedAt: new Date(thread.updatedAt).toISOString(),
            // Forks are marked, so a session can list its forks and a fork its original.
            ...(session.forkedFrom ? { forkedFrom: session.forkedFrom } : {}),
          },
        ];
      });
      // Threads from before the registry existed belong to nobody in particular: anonymous.
      if (owner === anonymousOwner) {
        const unowned = [...threads.values()].filter((thread) => isSessionThread(thread.threadId));
        const registeredIds = await runtime.sessions.registered(
          unowned.map((thread) => thread.threadId),
        );
        for (const thread of unowned) {
          if (registeredIds.has(thread.threadId)) continue;
          sessions.push({
            sessionId: thread.threadId,
            title: '',
            graph: defaultGraphName,
            status: thread.status,
            updatedAt: new Date(thread.updatedAt).toISOString(),
          });
        }
      }
      sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      return { sessions };
    },
  });

  const getSession = defineRoute({
    method: 'GET',
    path: '/api/sessions/:id',
    scope: 'yeoul:read',
    operationId: 'getSession',
    summary: 'A session’s memory window, summary and pending approvals',
    request: { params: sessionParams },
    responses: { 200: { description: 'the session', schema: sessionSchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) => {
      const id = await ownedSession(request, input);
      const graph = await runner.threadGraph(id);
      const state = await graph.getState(id);
      if (state === undefined) throw notFound(id);
      const values = state.values as { messages?: unknown; summary?: unknown };
      return {
        sessionId: id,
        graph: (await runtime.sessions.graphOf(id)) ?? defaultGraphName,
        messages: Array.isArray(values.messages) ? values.messages : [],
        summary: typeof values.summary === 'string' ? values.summary : '',
        interrupts: await runner.pendingInterrupts(id),
        status: state.status,
        running: runner.isRunning(id),
        updatedAt: new Date(state.updatedAt).toISOString(),
        ...(state.forkedFrom
          ? { forkedFrom: { sessionId: state.forkedFrom.threadId, step: state.forkedFrom.step } }
          : {}),
      };
    },
  });

  const forkAtStep = defineRoute({
    method: 'POST',
    path: '/api/sessions/:id/fork',
    scope: 'yeoul:write',
    operationId: 'forkSession',
    summary: 'A new session whose state is this one’s after step atStep (-1: before any)',
    request: { params: sessionParams, body: forkBody },
    responses: { 201: { description: 'forked', schema: forkResponseSchema } },
    errors: [400, 401, 404, 409],
    handler: async (request, reply, input) => {
      const id = await ownedSession(request, input);
      const owner = context.ownerOf(request);
      const body = input.body();
      const sessionId = body.sessionId ?? createId();
      const holder = await runtime.sessions.ownerOf(sessionId);
      // Another owner's session, named as the fork's id, answers as invoke naming it does.
      if (holder !== undefined && holder !== owner) throw notFound(sessionId);
      if (holder !== undefined) {
        throw new HttpError({
          status: 409,
          code: 'thread_exists',
          message: `session "${sessionId}" already exists; choose another id`,
        });
      }
      const fork = await forkSession(runtime, {
        from: id,
        atStep: body.atStep,
        owner,
        sessionId,
      });
      return reply.code(201).send(fork);
    },
  });

  const getSessionHistory = defineRoute({
    method: 'GET',
    path: '/api/sessions/:id/history',
    scope: 'yeoul:read',
    operationId: 'getSessionHistory',
    summary: 'Every stored step of the session, oldest first: node, update, time',
    request: { params: sessionParams },
    responses: { 200: { description: 'the steps', schema: historySchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) => {
      const id = await ownedSession(request, input);
      const history = await (await runner.threadGraph(id)).history(id);
      if (history.length === 0) throw notFound(id);
      return {
        steps: history.map((entry) => ({
          step: entry.step,
          runId: entry.runId,
          node: entry.node ?? entry.kind,
          kind: entry.kind,
          superstep: entry.superstep,
          update: entry.update,
          status: entry.status,
          ...(entry.error ? { error: entry.error } : {}),
          at: new Date(entry.createdAt).toISOString(),
          ...(entry.path ? { path: entry.path } : {}),
        })),
      };
    },
  });

  const deleteSession = defineRoute({
    method: 'DELETE',
    path: '/api/sessions/:id',
    scope: 'yeoul:write',
    operationId: 'deleteSession',
    summary: 'Delete a session and everything stored for it',
    request: { params: sessionParams },
    responses: { 204: { description: 'deleted' } },
    errors: [400, 401, 404],
    handler: async (request, reply, input) => {
      const id = await ownedSession(request, input);
      const graph = await runner.threadGraph(id);
      if (!(await runtime.sessions.has(id)) && (await graph.getState(id)) === undefined) {
        throw notFound(id);
      }
      if (runner.isRunning(id)) await runner.cancel(id);
      else await context.cancelElsewhere(id);
      await deleteSessionData(runtime, id);
      return reply.code(204).send();
    },
  });

  const cancelSessionRun = defineRoute({
    method: 'POST',
    path: '/api/sessions/:id/cancel',
    scope: 'yeoul:write',
    operationId: 'cancelSessionRun',
    summary: 'Stop the session’s run (or abandon an interrupted or paused one)',
    request: { params: sessionParams },
    responses: { 202: { description: 'stopped' } },
    errors: [400, 401, 404],
    handler: async (request, reply, input) => {
      const id = await ownedSession(request, input);
      // Here, or (instances sharing a database) in the instance that runs it.
      if (!(await runner.cancel(id)) && !(await context.cancelElsewhere(id))) {
        throw new HttpError({
          status: 404,
          code: 'no_active_run',
          message: `session "${id}" has no run going, interrupted or waiting for approval`,
        });
      }
      await cancelPausedRuns(context, id, context.ownerOf(request));
      return reply.code(202).send({ sessionId: id, status: 'cancelled' });
    },
  });

  const denyPendingCalls = defineRoute({
    method: 'DELETE',
    path: '/api/sessions/:id/interrupts',
    scope: 'yeoul:write',
    operationId: 'denyPendingCalls',
    summary: 'Deny every tool call waiting for approval; the run goes on to its answer',
    request: { params: sessionParams },
    responses: { 200: { description: 'the answer payload', schema: invokeResponseSchema } },
    errors: [400, 401, 404, 409],
    handler: async (request, reply, input) => {
      const id = await ownedSession(request, input);
      const pending = await runner.pendingInterrupts(id);
      if (pending.length === 0) {
        throw new HttpError({
          status: 409,
          code: 'not_interrupted',
          message: `session "${id}" has no tool call waiting for a decision`,
        });
      }
      const decisions = pending.map((interrupt) => ({
        id: interrupt.id,
        approve: false,
        reason: 'all pending calls were denied',
      }));
      return runAgentCall(
        context,
        { sessionId: id, owner: context.ownerOf(request), resume: { decisions } },
        { streamTokens: false, arrivedAt: arrivalOf(reply), source: 'invoke' },
      );
    },
  });

  return {
    tag: {
      name: 'sessions',
      description: 'Sessions: state, history, forks, cancelling, approvals',
    },
    routes: [
      listSessions,
      getSession,
      getSessionHistory,
      deleteSession,
      forkAtStep,
      cancelSessionRun,
      denyPendingCalls,
      pruneSessionsRoute(context),
    ],
  };
}
