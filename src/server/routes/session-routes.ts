import type { FastifyInstance } from 'fastify';
import { defaultGraphName, isSessionThread } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { forkBody } from '../../protocol/index.ts';
import { HttpError } from '../http/http-error.ts';
import { parseWith, sessionParams } from '../http/schemas.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import { forkSession } from '../sessions/fork-session.ts';
import { anonymousOwner, notFound } from '../sessions/session-store.ts';
import type { RouteContext } from './route-context.ts';

/**
 * GET /api/sessions, GET and DELETE /api/sessions/:id, GET /api/sessions/:id/history,
 * POST /api/sessions/:id/fork, POST /api/sessions/:id/cancel and
 * DELETE /api/sessions/:id/interrupts.
 */
export function registerSessionRoutes(app: FastifyInstance, context: RouteContext): void {
  const { runtime } = context;
  const runner = runtime.runner;

  /** The session id of the path, checked to be the caller's. */
  const ownedSession = async (request: Parameters<RouteContext['ownerOf']>[0]) => {
    const { id } = parseWith(sessionParams, request.params);
    await runtime.sessions.check(id, context.ownerOf(request));
    return id;
  };

  app.get('/api/sessions', async (request) => {
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
  });

  app.get('/api/sessions/:id', async (request) => {
    const id = await ownedSession(request);
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
  });

  app.post('/api/sessions/:id/fork', async (request, reply) => {
    const id = await ownedSession(request);
    const body = parseWith(forkBody, request.body);
    const sessionId = body.sessionId ?? createId();
    if (await runtime.sessions.has(sessionId)) {
      throw new HttpError({
        status: 409,
        code: 'thread_exists',
        message: `session "${sessionId}" already exists; choose another id`,
      });
    }
    const fork = await forkSession(runtime, {
      from: id,
      atStep: body.atStep,
      owner: context.ownerOf(request),
      sessionId,
    });
    return reply.code(201).send(fork);
  });

  app.get('/api/sessions/:id/history', async (request) => {
    const id = await ownedSession(request);
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
  });

  app.delete('/api/sessions/:id', async (request, reply) => {
    const id = await ownedSession(request);
    const graph = await runner.threadGraph(id);
    if (!(await runtime.sessions.has(id)) && (await graph.getState(id)) === undefined) {
      throw notFound(id);
    }
    if (runner.isRunning(id)) await runner.cancel(id);
    else await context.cancelElsewhere(id);
    await runner.deleteSession(id);
    await runtime.sessions.forget(id);
    return reply.code(204).send();
  });

  app.post('/api/sessions/:id/cancel', async (request, reply) => {
    const id = await ownedSession(request);
    // Here, or (instances sharing a database) in the instance that runs it.
    if (!(await runner.cancel(id)) && !(await context.cancelElsewhere(id))) {
      throw new HttpError({
        status: 404,
        code: 'no_active_run',
        message: `session "${id}" has no run going, interrupted or waiting for approval`,
      });
    }
    return reply.code(202).send({ sessionId: id, status: 'cancelled' });
  });

  app.delete('/api/sessions/:id/interrupts', async (request, reply) => {
    const id = await ownedSession(request);
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
      { sessionId: id, resume: { decisions } },
      { streamTokens: false, arrivedAt: arrivalOf(reply) },
    );
  });
}
