import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { createMcpServer } from '../../mcp/index.ts';
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
 * requests (the queue bound, recorded events, metrics) for the key's owner; the bearer
 * keys are checked by the server's auth hook like every /mcp request.
 */
export function registerMcpRoutes(app: FastifyInstance, context: RouteContext): void {
  app.post('/mcp', async (request, reply) => {
    const backend = createMcpBackend(context.runtime, {
      owner: context.ownerOf(request),
      version: context.version,
      run: (call, options) =>
        runAgentCall(context, call, {
          signal: options.signal,
          streamTokens: true,
          arrivedAt: arrivalOf(reply),
          onEvent: (entry) => options.onEvent(entry.event, entry.data),
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
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').type('application/json').send(methodNotAllowed),
    });
  }
}
