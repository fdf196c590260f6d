import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { admitRun } from '../runs/admit-run.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import { createMcpBackend } from '../runtime/mcp-backend.ts';
import type { RouteContext } from './route-context.ts';

/** What a GET or DELETE on /mcp gets: this server keeps no MCP sessions to stream or end. */
const methodNotAllowed = JSON.stringify({
  jsonrpc: '2.0',
  error: {
    code: -32000,
    message: 'Method not allowed: this MCP endpoint is stateless; POST requests',
  },
  id: null,
});

/**
 * Yeoul as an MCP server over Streamable HTTP at /mcp, stateless: every POST gets its own
 * server and transport, answering on the raw response (Fastify steps aside), with
 * progress notifications streamed as SSE while `ask` runs. `ask` runs like `/api`'s
 * requests (the queue bound, recorded events, metrics) for the caller's owner. Credentials
 * are checked before like every /mcp request's: listing tools and `search_knowledge` need
 * `yeoul:read`, `ask` `yeoul:write` (a tool error without it).
 */
export function mcpRoutes(context: RouteContext): RouteGroup {
  const mcp = defineRoute({
    method: 'POST',
    path: '/mcp',
    scope: 'yeoul:read',
    operationId: 'mcp',
    summary:
      'MCP (Model Context Protocol) over Streamable HTTP, stateless: JSON-RPC requests for the tools ask {message, sessionId?} and search_knowledge {query, k?}',
    request: {
      bodyContent: { 'application/json': { type: 'object', description: 'a JSON-RPC message' } },
    },
    responses: {
      200: {
        description:
          'a JSON-RPC answer, as JSON or Server-Sent Events (with progress notifications)',
        content: {
          'application/json': { type: 'object' },
          'text/event-stream': { type: 'string' },
        },
      },
    },
    errors: [401],
    handler: async (request, reply) => {
      const caller = context.identityOf(request);
      const backend = createMcpBackend(context.runtime, {
        owner: caller.owner,
        canRun: caller.scopes.has('yeoul:write'),
        version: context.version,
        admit: (createdSession) => admitRun(context, request, caller.owner, createdSession),
        run: (call, options) =>
          runAgentCall(context, call, {
            signal: options.signal,
            streamTokens: true,
            arrivedAt: arrivalOf(reply),
            admission: options.admission,
            onEvent: (entry) => options.onEvent(entry.event, entry.data),
            source: 'mcp',
          }),
      });
      const server = createMcpServer(backend);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32603, message: 'Internal server error' },
              id: null,
            }),
          );
        }
      }
    },
  });

  // Only POST is an operation: GET and DELETE exist to say so in JSON-RPC's words.
  const refusals = (['GET', 'DELETE'] as const).map((method) =>
    defineRoute({
      method,
      path: '/mcp',
      hidden: true,
      scope: null,
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').type('application/json').send(methodNotAllowed),
    }),
  );

  return {
    tag: { name: 'mcp', description: 'Yeoul as an MCP server (Streamable HTTP, stateless)' },
    routes: [mcp, ...refusals],
  };
}
