import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';
import { idParams, parseWith } from '../schemas.ts';
import type { RouteContext } from './route-context.ts';

/** GET /api/sessions, GET and DELETE /api/sessions/:id. */
export function registerSessionRoutes(app: FastifyInstance, context: RouteContext): void {
  const chat = context.runtime.runner.chat;

  app.get('/api/sessions', async (request) => {
    const owned = context.sessions.owned(context.ownerOf(request));
    const threads = await context.runtime.checkpointer.listThreads();
    return {
      sessions: threads
        .filter((thread) => owned.has(thread.threadId))
        .map((thread) => ({
          sessionId: thread.threadId,
          status: thread.status,
          updatedAt: new Date(thread.updatedAt).toISOString(),
        })),
    };
  });

  app.get('/api/sessions/:id', async (request) => {
    const { id } = parseWith(idParams, request.params);
    context.sessions.check(id, context.ownerOf(request));
    const state = await chat.getState(id);
    if (state === undefined)
      throw new HttpError({ status: 404, code: 'not_found', message: `no session "${id}"` });
    return {
      sessionId: id,
      messages: state.values.messages.map(({ id: messageId, ...message }) => ({
        id: messageId,
        ...message,
      })),
      summary: state.values.summary ?? '',
      status: state.status,
      updatedAt: new Date(state.updatedAt).toISOString(),
    };
  });

  app.delete('/api/sessions/:id', async (request, reply) => {
    const { id } = parseWith(idParams, request.params);
    context.sessions.check(id, context.ownerOf(request));
    await chat.deleteThread(id);
    context.sessions.forget(id);
    return reply.code(204).send();
  });
}
