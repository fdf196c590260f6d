import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createId } from '../../core/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import {
  conversationItems,
  itemsOfMessages,
  messagesOfItems,
  pageOfItems,
} from '../responses/conversation-items.ts';
import { nowSeconds } from '../responses/response-object.ts';
import {
  conversationDeletedSchema,
  conversationItemSchema,
  conversationSchema,
  itemListSchema,
} from '../responses/response-schemas.ts';
import { conversationNotFound, isConversationOf } from '../responses/response-session.ts';
import { deleteSession } from '../sessions/delete-session.ts';
import type { RouteContext } from './route-context.ts';

const metadata = z.record(z.string().max(64), z.string().max(512)).nullish();
const conversationParams = z.object({ id: z.string().min(1).max(200) });
const itemParams = conversationParams.extend({ item_id: z.string().min(1).max(200) });
const itemQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: z.string().min(1).optional(),
  include: z.unknown().optional(),
});

/**
 * OpenAI's Conversations API under /v1: a conversation is a session of the caller (any of
 * them). POST, GET, POST (metadata) and DELETE /v1/conversations[/:id]; the items — the
 * session's messages — listed, appended without a run, and read one by one.
 */
export function conversationsRoutes(context: RouteContext): Route[] {
  const { runtime } = context;

  /** The caller's conversation of the path; 404 `conversation_not_found` otherwise. */
  const owned = async (request: FastifyRequest, id: string): Promise<string> => {
    if (!(await isConversationOf(runtime, id, context.ownerOf(request)))) {
      throw conversationNotFound(id);
    }
    return id;
  };

  /** The conversation as OpenAI shows it. */
  const conversationOf = async (sessionId: string, owner: string) => {
    const stored = await runtime.responses.conversation(sessionId);
    const summary = stored
      ? undefined
      : (await runtime.sessions.owned(owner)).find((entry) => entry.sessionId === sessionId);
    return {
      id: sessionId,
      object: 'conversation' as const,
      created_at: stored?.createdAt ?? Math.floor((summary?.createdAt ?? Date.now()) / 1000),
      metadata: stored?.metadata ?? {},
    };
  };

  /** The session's messages (its memory window). */
  const messagesOf = async (sessionId: string): Promise<ChatMessage[]> => {
    const state = await (await runtime.runner.threadGraph(sessionId)).getState(sessionId);
    const messages = (state?.values as { messages?: ChatMessage[] } | undefined)?.messages;
    return Array.isArray(messages) ? messages : [];
  };

  /** Appends messages to the session without a run (refused while a run goes or waits). */
  const append = async (sessionId: string, messages: ChatMessage[]): Promise<void> => {
    if (messages.length === 0) return;
    const graph = await runtime.runner.threadGraph(sessionId);
    const state = await graph.getState(sessionId);
    if (runtime.runner.isRunning(sessionId) || state?.status === 'running') {
      throw new HttpError({
        status: 409,
        code: 'session_busy',
        message: `conversation "${sessionId}" has a run going; add items when it has ended`,
      });
    }
    if (state?.status === 'interrupted') {
      throw new HttpError({
        status: 409,
        code: 'awaiting_approval',
        message: `conversation "${sessionId}" waits for approval; decide it first`,
      });
    }
    await graph.updateState(sessionId, { messages } as never);
  };

  const createConversation = defineRoute({
    method: 'POST',
    path: '/conversations',
    scope: 'yeoul:write',
    operationId: 'createConversation',
    summary: 'A new conversation (a session), with up to 20 messages as its history',
    request: {
      body: z.object({ items: conversationItems.nullish(), metadata }),
      emptyBody: {},
    },
    responses: { 200: { description: 'the conversation', schema: conversationSchema } },
    errors: [400, 401],
    handler: async (request, _reply, input) => {
      const body = input.body();
      const owner = context.ownerOf(request);
      const sessionId = createId();
      const messages = messagesOfItems(body.items ?? []);
      const first = messages.find((message) => message.role === 'user')?.content;
      await runtime.sessions.claim(sessionId, owner, first);
      const conversation = {
        sessionId,
        owner,
        createdAt: nowSeconds(),
        metadata: body.metadata ?? {},
      };
      await runtime.responses.saveConversation(conversation);
      await append(sessionId, messages);
      return conversationOf(sessionId, owner);
    },
  });

  const getConversation = defineRoute({
    method: 'GET',
    path: '/conversations/:id',
    scope: 'yeoul:read',
    operationId: 'getConversation',
    summary: 'A conversation (any session of the caller)',
    request: { params: conversationParams },
    responses: { 200: { description: 'the conversation', schema: conversationSchema } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const id = await owned(request, input.params().id);
      return conversationOf(id, context.ownerOf(request));
    },
  });

  const updateConversation = defineRoute({
    method: 'POST',
    path: '/conversations/:id',
    scope: 'yeoul:write',
    operationId: 'updateConversation',
    summary: 'Replace a conversation’s metadata',
    request: {
      params: conversationParams,
      body: z.object({ metadata: z.record(z.string().max(64), z.string().max(512)) }),
    },
    responses: { 200: { description: 'the conversation', schema: conversationSchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) => {
      const id = await owned(request, input.params().id);
      const owner = context.ownerOf(request);
      const current = await conversationOf(id, owner);
      await runtime.responses.saveConversation({
        sessionId: id,
        owner,
        createdAt: current.created_at,
        metadata: input.body().metadata,
      });
      return conversationOf(id, owner);
    },
  });

  const deleteConversation = defineRoute({
    method: 'DELETE',
    path: '/conversations/:id',
    scope: 'yeoul:write',
    operationId: 'deleteConversation',
    summary: 'Delete a conversation: its session and everything stored for it',
    request: { params: conversationParams },
    responses: { 200: { description: 'deleted', schema: conversationDeletedSchema } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const id = await owned(request, input.params().id);
      if (runtime.runner.isRunning(id)) await runtime.runner.cancel(id);
      else await context.cancelElsewhere(id);
      await deleteSession(runtime, id);
      return { id, object: 'conversation.deleted' as const, deleted: true as const };
    },
  });

  const listItems = defineRoute({
    method: 'GET',
    path: '/conversations/:id/items',
    scope: 'yeoul:read',
    operationId: 'listConversationItems',
    summary: 'A conversation’s items (the session’s messages), newest first unless order=asc',
    request: { params: conversationParams, query: itemQuery },
    responses: { 200: { description: 'a page of items', schema: itemListSchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) => {
      const id = await owned(request, input.params().id);
      const query = input.query();
      return pageOfItems(itemsOfMessages(await messagesOf(id)), query);
    },
  });

  const addItems = defineRoute({
    method: 'POST',
    path: '/conversations/:id/items',
    scope: 'yeoul:write',
    operationId: 'addConversationItems',
    summary: 'Append up to 20 messages to a conversation, without a run',
    request: { params: conversationParams, body: z.object({ items: conversationItems.min(1) }) },
    responses: { 200: { description: 'the items added', schema: itemListSchema } },
    errors: [400, 401, 404, 409],
    handler: async (request, _reply, input) => {
      const id = await owned(request, input.params().id);
      const messages = messagesOfItems(input.body().items);
      await append(id, messages);
      const added = itemsOfMessages((await messagesOf(id)).slice(-messages.length));
      return pageOfItems(added, { limit: added.length, order: 'asc' });
    },
  });

  const getItem = defineRoute({
    method: 'GET',
    path: '/conversations/:id/items/:item_id',
    scope: 'yeoul:read',
    operationId: 'getConversationItem',
    summary: 'One item of a conversation',
    request: { params: itemParams },
    responses: { 200: { description: 'the item', schema: conversationItemSchema } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const { id, item_id: itemId } = input.params();
      await owned(request, id);
      const item = itemsOfMessages(await messagesOf(id)).find((entry) => entry.id === itemId);
      if (item === undefined) {
        throw new HttpError({
          status: 404,
          code: 'not_found',
          message: `Item with id '${itemId}' not found.`,
        });
      }
      return item;
    },
  });

  return [
    createConversation,
    getConversation,
    updateConversation,
    deleteConversation,
    listItems,
    addItems,
    getItem,
  ];
}
