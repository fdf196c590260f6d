import { z } from 'zod';
import {
  jsonRpcIdOf,
  mcpRefusal,
  refuseRevision,
  sessionNotFound,
  statelessRevision,
} from '../../mcp/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import type { RouteContext } from './route-context.ts';
import { headerOf, sendRefusal, serveSessionPost, serveStatelessPost } from './serve-mcp-post.ts';

const mcpHeaders = z.object({
  'mcp-protocol-version': z
    .string()
    .optional()
    .describe('2026-07-28 (stateless), or 2025-11-25, 2025-06-18, 2025-03-26 (with sessions)'),
  'mcp-session-id': z.string().optional().describe('the session initialize began'),
  'mcp-method': z.string().optional().describe('2026-07-28: the body’s method'),
  'mcp-name': z.string().optional().describe('2026-07-28: the tool a tools/call names'),
});

const jsonRpcError = z.object({
  jsonrpc: z.literal('2.0'),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }),
  id: z.union([z.string(), z.number(), z.null()]),
});

/** The documented answer for a session that is not there. */
const sessionNotFoundAnswer = {
  description: 'JSON-RPC error -32001: the session is unknown, ended or another owner’s',
  schema: jsonRpcError,
};

/** What a GET on /mcp gets: this server opens no stream of its own. */
const methodNotAllowed = mcpRefusal(
  405,
  -32000,
  'Method not allowed: POST requests (and DELETE to end a session); this server opens no stream of its own',
);

/**
 * Yeoul as an MCP server over Streamable HTTP at /mcp. A POST with `MCP-Protocol-Version:
 * 2026-07-28` stands alone (no `initialize`, no session); the other revisions `initialize` a
 * session kept in the store, which `DELETE /mcp` ends; another revision is 400 -32022. Every
 * POST gets its own server, so any instance answers any session. Credentials are checked
 * before like every /mcp request's: listing tools and `search_knowledge` need `yeoul:read`,
 * `ask` `yeoul:write` (a tool error without it).
 */
export function mcpRoutes(context: RouteContext): RouteGroup {
  const post = defineRoute({
    method: 'POST',
    path: '/mcp',
    scope: 'yeoul:read',
    operationId: 'mcp',
    summary:
      'MCP (Model Context Protocol) over Streamable HTTP: JSON-RPC requests for the tools ask {message, sessionId?} and search_knowledge {query, k?}; 2026-07-28 stateless, or a session begun by initialize',
    request: {
      headers: mcpHeaders,
      bodyContent: { 'application/json': { type: 'object', description: 'a JSON-RPC message' } },
    },
    responses: {
      200: {
        description:
          'a JSON-RPC answer, as JSON or Server-Sent Events (with progress notifications); initialize’s carries Mcp-Session-Id',
        content: {
          'application/json': { type: 'object' },
          'text/event-stream': { type: 'string' },
        },
      },
      202: { description: 'a notification, taken' },
      400: {
        description:
          'JSON-RPC error -32022 (another MCP-Protocol-Version; data.supported lists the served ones) or -32020 (a 2026-07-28 header disagrees with the body)',
        schema: jsonRpcError,
      },
      404: sessionNotFoundAnswer,
    },
    errors: [401],
    handler: async (request, reply) => {
      const version = headerOf(request, 'mcp-protocol-version');
      const refusal = refuseRevision(version, jsonRpcIdOf(request.body));
      if (refusal) return sendRefusal(reply, refusal);
      return version === statelessRevision
        ? serveStatelessPost(context, request, reply)
        : serveSessionPost(context, request, reply);
    },
  });

  const end = defineRoute({
    method: 'DELETE',
    path: '/mcp',
    scope: 'yeoul:read',
    operationId: 'endMcpSession',
    summary: 'Ends the MCP session named by Mcp-Session-Id',
    request: { headers: mcpHeaders },
    responses: {
      204: { description: 'the session ended' },
      400: {
        description: 'no Mcp-Session-Id, or another MCP-Protocol-Version',
        schema: jsonRpcError,
      },
      404: sessionNotFoundAnswer,
    },
    errors: [401],
    handler: async (request, reply) => {
      const refusal = refuseRevision(headerOf(request, 'mcp-protocol-version'));
      if (refusal) return sendRefusal(reply, refusal);
      const sessionId = headerOf(request, 'mcp-session-id');
      if (sessionId === undefined) {
        return sendRefusal(
          reply,
          mcpRefusal(400, -32000, 'Bad Request: Mcp-Session-Id header is required'),
        );
      }
      const { owner } = context.identityOf(request);
      if (!(await context.runtime.mcpSessions.end(sessionId, owner))) {
        return sendRefusal(reply, sessionNotFound());
      }
      return reply.code(204).send();
    },
  });

  // GET exists to say, in JSON-RPC's words, that no stream is opened here.
  const refuseGet = defineRoute({
    method: 'GET',
    path: '/mcp',
    hidden: true,
    scope: null,
    handler: async (_request, reply) =>
      sendRefusal(reply.header('allow', 'POST, DELETE'), methodNotAllowed),
  });

  return {
    tag: {
      name: 'mcp',
      description: 'Yeoul as an MCP server (Streamable HTTP: 2026-07-28 stateless, or sessions)',
    },
    routes: [post, end, refuseGet],
  };
}
