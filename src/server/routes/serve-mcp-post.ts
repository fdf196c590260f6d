import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  answerOneMessage,
  checkStatelessRequest,
  createMcpServer,
  discoverServer,
  jsonRpcIdOf,
  loadMcpHttpServerSdk,
  type McpRefusal,
  sessionNotFound,
  sessionRevisions,
} from '../../mcp/index.ts';
import { admitRun } from '../runs/admit-run.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import { createMcpBackend } from '../runtime/mcp-backend.ts';
import type { RouteContext } from './route-context.ts';

/** The one value of a request header (several joined), or undefined. */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends a JSON-RPC refusal with its HTTP status. */
export function sendRefusal(reply: FastifyReply, refusal: McpRefusal): FastifyReply {
  return reply.code(refusal.status).type('application/json').send(refusal.body);
}

/**
 * Yeoul's MCP server for this request's caller: `ask` runs like `/api`'s requests (the queue
 * bound, recorded events, metrics) for the caller's owner and needs `yeoul:write`.
 */
async function mcpServerFor(context: RouteContext, request: FastifyRequest, reply: FastifyReply) {
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
  return createMcpServer(backend);
}

/** A signal that aborts when the client goes away before its answer was sent. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * A POST of the stateless revision: checked (400 -32020 when a header and the body disagree),
 * then answered on its own — `server/discover` here, the rest by a server of its own — as
 * JSON, or as Server-Sent Events carrying progress notifications first when the client sent a
 * progress token and accepts them. No session is begun or looked up.
 */
export async function serveStatelessPost(
  context: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const message = checkStatelessRequest(request.headers, request.body);
  if ('status' in message) return sendRefusal(reply, message);
  const signal = clientGone(reply);
  if (message.method === 'server/discover' && message.id !== undefined) {
    const result = await discoverServer(await mcpServerFor(context, request, reply), signal);
    return reply.type('application/json').send({ jsonrpc: '2.0', id: message.id, result });
  }
  const server = await mcpServerFor(context, request, reply);
  const headers = request.headers;
  if (message.id === undefined) {
    await answerOneMessage(server, message, { signal, headers });
    return reply.code(202).send();
  }
  const meta = message.params?._meta as { progressToken?: unknown } | undefined;
  const streams =
    meta?.progressToken !== undefined && headerOf(request, 'accept')?.includes('text/event-stream');
  if (!streams) {
    const answer = await answerOneMessage(server, message, { signal, headers });
    if (answer !== undefined) return reply.type('application/json').send(answer);
    // The client went away: nothing to answer.
    reply.hijack();
    reply.raw.destroy();
    return undefined;
  }
  const raw = hijack(reply);
  raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (data: unknown) => raw.write(`event: message\ndata: ${JSON.stringify(data)}\n\n`);
  const answer = await answerOneMessage(server, message, {
    signal,
    headers,
    onNotification: event,
  });
  if (answer !== undefined) event(answer);
  raw.end();
  return undefined;
}

/**
 * A POST of a session-based revision (or one naming none), through the SDK's transport:
 * `initialize` begins a session kept in the store (its revision one of these, else the newest)
 * and answers with its `Mcp-Session-Id`; a request naming a session is served when the store
 * has it live for this owner, else 404 -32001; a request naming none is served on its own.
 */
export async function serveSessionPost(
  context: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const { isInitializeRequest, StreamableHTTPServerTransport } = await loadMcpHttpServerSdk();
  const { owner } = context.identityOf(request);
  const sessions = context.runtime.mcpSessions;
  let body = request.body;
  let sessionId: string | undefined;
  if (isInitializeRequest(body)) {
    const requested = body.params.protocolVersion;
    const protocolVersion = (sessionRevisions as readonly string[]).includes(requested)
      ? requested
      : sessionRevisions[0];
    body = { ...body, params: { ...body.params, protocolVersion } };
    sessionId = randomUUID();
    await sessions.create({ id: sessionId, owner, protocolVersion });
  } else {
    const named = headerOf(request, 'mcp-session-id');
    if (named !== undefined && !(await sessions.use(named, owner))) {
      return sendRefusal(reply, sessionNotFound(jsonRpcIdOf(body)));
    }
  }
  const server = await mcpServerFor(context, request, reply);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: sessionId === undefined ? undefined : () => sessionId,
  });
  const raw = hijack(reply);
  raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, raw, body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!raw.headersSent) {
      raw.writeHead(500, { 'content-type': 'application/json' });
      raw.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal server error' },
          id: null,
        }),
      );
    }
  }
  return undefined;
}

/**
 * Takes the raw response from Fastify, keeping the headers set so far (the request id, CORS)
 * on it: what writes the answer itself would otherwise drop them.
 */
function hijack(reply: FastifyReply) {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.hijack();
  return reply.raw;
}
