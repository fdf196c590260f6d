import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyRequest } from 'fastify';
import { createId } from '../core/index.ts';
import type { Runtime } from './create-runtime.ts';
import { errorResponse, HttpError } from './http-error.ts';
import { Metrics } from './metrics.ts';
import { registerAgentRoutes } from './routes/agent-routes.ts';
import { registerDocumentRoutes } from './routes/document-routes.ts';
import type { RouteContext } from './routes/route-context.ts';
import { registerSessionRoutes } from './routes/session-routes.ts';
import { registerSystemRoutes } from './routes/system-routes.ts';
import { SessionGuard } from './session-guard.ts';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1']);

/** A listening server. */
export interface RunningServer {
  url: string;
  /** Stops taking requests, lets running ones finish, and closes the runtime. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP API on the runtime. Without API keys it listens on loopback only (and
 * refuses another host); with keys every /api request needs `Authorization: Bearer`.
 * Runs left interrupted by an earlier crash are marked failed before it listens.
 */
export async function startServer(
  runtime: Runtime,
  options: { port?: number; host?: string; logger?: boolean } = {},
): Promise<RunningServer> {
  const config = runtime.config;
  const host = options.host ?? config.host;
  const port = options.port ?? config.port;
  if (config.apiKeys.length === 0 && !loopbackHosts.has(host)) {
    throw new HttpError({
      status: 500,
      code: 'config_invalid',
      message: `refusing to listen on ${host} without YEOUL_API_KEYS: set keys, or listen on 127.0.0.1`,
    });
  }
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.env.LOG_LEVEL ?? 'info',
            redact: {
              paths: ['req.headers.authorization', 'req.body', 'body.message', '*.message'],
              censor: '[redacted]',
            },
          },
    bodyLimit: config.bodyLimit,
    // On close, idle keep-alive connections are dropped at once; busy ones finish first.
    forceCloseConnections: 'idle',
    genReqId: () => createId(),
  });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 20 } });

  const keyDigests = config.apiKeys.map((key) => createHash('sha256').update(key).digest());
  const keyOf = (request: FastifyRequest): string | undefined => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    return match?.[1]?.trim();
  };
  const metrics = new Metrics();
  const context: RouteContext = {
    runtime,
    sessions: new SessionGuard(runtime.checkpointer.database, config.sessionQueueLimit),
    metrics,
    startedAt: Date.now(),
    version: (
      JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version,
    ownerOf: (request) =>
      SessionGuard.ownerOf(config.apiKeys.length > 0 ? keyOf(request) : undefined),
  };

  app.addHook('onRequest', async (request) => {
    if (keyDigests.length === 0 || !/^\/(?:api|v1)\//.test(request.url)) return;
    const key = keyOf(request);
    const digest = createHash('sha256')
      .update(key ?? '')
      .digest();
    const known =
      key !== undefined && keyDigests.some((candidate) => timingSafeEqual(candidate, digest));
    if (!known)
      throw new HttpError({
        status: 401,
        code: 'unauthorized',
        message: 'a valid Authorization: Bearer <key> header is required',
      });
  });
  // While shutting down, answers close their connection, so that a keep-alive client
  // does not hold the server open for Fastify's 72 s keep-alive timeout.
  let closing = false;
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    metrics.increment('yeoul_errors_total', { code: body.error.code });
    void reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url}` } });
  });

  registerAgentRoutes(app, context);
  registerSessionRoutes(app, context);
  registerDocumentRoutes(app, context);
  registerSystemRoutes(app, context);

  for (const pending of await runtime.runner.chat.pendingRuns()) {
    await runtime.runner.chat.abandon(
      pending.threadId,
      'the server stopped while this run was in progress',
    );
  }
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  if (config.apiKeys.length === 0)
    app.log.warn(`no YEOUL_API_KEYS: listening on loopback only (${url}), no authentication`);
  return {
    url,
    async close() {
      closing = true;
      await app.close();
      await runtime.close();
    },
  };
}
