import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import { createId, yeoulVersion } from '../../core/index.ts';
import { loadTokenizer } from '../../models/index.ts';
import { ScheduleRunner } from '../../schedules/index.ts';
import { PortInUseError } from '../errors/port-in-use-error.ts';
import { uploadFileLimit, uploadFilesLimit } from '../routes/document-routes.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { serverRoutes } from '../routes/server-routes.ts';
import { recoverRuns } from '../runs/recover-runs.ts';
import { localCoordination } from '../runs/run-coordination.ts';
import { type RunEvents, RunLedger } from '../runs/run-ledger.ts';
import type { AgentCall } from '../runs/run-request.ts';
import { RunSlots } from '../runs/run-slots.ts';
import type { RunRecord } from '../runs/run-store.ts';
import { type BackgroundRunOptions, startBackgroundRun } from '../runs/start-background-run.ts';
import { startScheduleRun } from '../runs/start-schedule-run.ts';
import { startWebhookDelivery } from '../runs/start-webhook-delivery.ts';
import { createLogger } from '../runtime/create-logger.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { startSessionTtl } from '../sessions/session-ttl.ts';
import { authenticateRequests, protectedPath } from './authenticate-requests.ts';
import { errorHeaders, errorResponse, HttpError } from './http-error.ts';
import { traceRequests } from './http-tracing.ts';
import { Metrics } from './metrics.ts';
import { registerRoutes } from './register-routes.ts';
import { RequestLogController } from './request-log-controller.ts';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1']);
/** A request id a client may choose (x-request-id); anything else gets a new one. */
const clientRequestId = /^[A-Za-z0-9._:-]{1,128}$/;
/** How long shutting down waits for running runs before it cancels them. */
const shutdownGraceMs = 10_000;

// Connections waiting to be accepted. Node's 511 drops the SYNs of a burst of 1,000 clients while
// the event loop is busy, and each dropped one waits 1, 3 or 7 s for its retry; the kernel caps
// this at net.core.somaxconn.
const LISTEN_BACKLOG = 4096;

/** A listening server. */
export interface RunningServer {
  url: string;
  /**
   * The server's runs: who hears of each pause and end (`onRunEnded`, for webhooks), and
   * `start`, which starts a background run as `POST /api/runs` does (for schedules).
   */
  runs: RunEvents & {
    start(call: AgentCall, options: BackgroundRunOptions): Promise<RunRecord | undefined>;
  };
  /** Stops taking requests, lets running ones finish, and closes the runtime. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP API on the runtime. Without authentication (no key, token key or config
 * hook) it listens on loopback only (and refuses another host); with it every route not
 * declared public needs credentials, and each is held to the scope it declares. Model
 * failures are logged (warn) and counted.
 */
export async function startServer(
  runtime: Runtime,
  options: {
    port?: number;
    host?: string;
    logger?: false | Logger;
    /** The waits before a webhook's attempts 2 … 8 (tests shorten them). */
    webhookRetryWaitsMs?: readonly number[];
  } = {},
): Promise<RunningServer> {
  const config = runtime.config;
  // Before listening: loading it later would stall the requests in flight (see loadTokenizer).
  loadTokenizer();
  const host = options.host ?? config.host;
  const port = options.port ?? config.port;
  const { identity } = runtime;
  if (!identity.enabled && !loopbackHosts.has(host)) {
    throw new HttpError({
      status: 500,
      code: 'config_invalid',
      message: `refusing to listen on ${host} without YEOUL_API_KEYS (or YEOUL_ADMIN_KEYS, a YEOUL_JWT_* key, the config's auth.authenticate): set one, or listen on 127.0.0.1`,
    });
  }
  const logger =
    options.logger === false
      ? createLogger({ LOG_LEVEL: 'silent' })
      : (options.logger ?? runtime.logger);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new RequestLogController(),
    bodyLimit: config.bodyLimit,
    // On close, idle keep-alive connections are dropped at once; busy ones finish first.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    routerOptions: { maxParamLength: 512 },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && clientRequestId.test(given) ? given : createId();
    },
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = errorResponse(error);
      void (reply as FastifyReply).code(status).send(body);
    },
  });
  // A DELETE or POST with `content-type: application/json` and no body has no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) done(null, undefined);
    else parseJson(request, body as string, done);
  });
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'content-type',
        'authorization',
        'x-api-key',
        'last-event-id',
        'x-request-id',
        'x-session-id',
        'mcp-session-id',
        'mcp-protocol-version',
        'mcp-method',
        'mcp-name',
        'a2a-version',
      ],
      exposedHeaders: ['x-request-id', 'content-location', 'location', 'mcp-session-id'],
      maxAge: 600,
    });
  }
  await app.register(multipart, {
    limits: { fileSize: uploadFileLimit, files: uploadFilesLimit, fields: 10 },
    throwFileSizeLimit: true,
  });

  const startedAt = Date.now();
  const metrics = new Metrics({ activeRuns: () => runtime.runner.activeRuns, startedAt });
  // Instances sharing PostgreSQL queue sessions, relay run events and cancel through it.
  const { store } = runtime;
  const runs = new RunLedger(runtime.runs, runtime.checkpointer.instanceId, (error) =>
    logger.warn({ err: error }, 'a run’s record could not be stored'),
  );
  const coordination =
    store.backend === 'postgres'
      ? await (await import('../scale-out/postgres-coordination.ts')).openPostgresCoordination({
          pool: store.pool,
          checkpointer: runtime.checkpointer,
          runner: runtime.runner,
          queueLimit: config.sessionQueueLimit,
          leaseMs: store.leaseMs,
          logger,
          cancelHere: (sessionId, reason) => {
            for (const runId of runs.liveOf(sessionId)) {
              // The run that supersedes the others may be this instance's own.
              if (reason.type !== 'superseded' || runId !== reason.runId)
                runs.cancel(runId, reason);
            }
          },
        })
      : localCoordination(config.sessionQueueLimit);
  // Schedules fire only in a serving process: each slot claimed in the store starts its run.
  const scheduleRunner = new ScheduleRunner({
    store: runtime.schedules,
    fire: ({ schedule, scheduledFor, catchUp, runId }) =>
      startScheduleRun(context, schedule, { runId, scheduledFor, catchUp }),
    onError: (error, what) => logger.warn({ err: error, what }, 'a schedule could not fire'),
  });
  const context: RouteContext = {
    runtime,
    schedules: scheduleRunner,
    queue: coordination.queue,
    metrics,
    streams: coordination.streams,
    runs,
    backgroundSlots: new RunSlots(config.backgroundRuns),
    cancelElsewhere: (sessionId, reason) => coordination.cancelElsewhere(sessionId, reason),
    closeLeftBehind: (sessionId) => coordination.closeLeftBehind(sessionId),
    logger: app.log,
    startedAt,
    version: yeoulVersion,
    identityOf: (request) => callers.identityOf(request),
    ownerOf: (request) => callers.identityOf(request).owner,
  };
  // Every failed model is a warning naming it; a call that moves on says where to.
  const stopWatchingModel = runtime.model.health.onFailure((failure, error, next) => {
    metrics.errors.inc({ code: failure.code });
    logger.warn(
      {
        code: failure.code,
        cause: failure.message,
        attempts: error.attempts,
        model: failure.model,
        ...(next === undefined ? {} : { next }),
      },
      next === undefined ? 'model call failed' : `model call failed; moving on to ${next}`,
    );
  });
  const stopCountingFallbacks = runtime.model.health.onFallback((from, to) =>
    metrics.modelFallbacks.inc({ from, to }),
  );
  const stopCountingGuardrails = runtime.guardrailReports.onGuardrail((record) =>
    metrics.guardrails.inc({ name: record.name, stage: record.stage, action: record.action }),
  );

  // A server span per agent request, `traceparent` in its response (only when tracing is on).
  if (runtime.tracing) traceRequests(app, protectedPath);
  let closing = false;
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (closing) {
      void reply.header('connection', 'close');
      throw new HttpError({
        status: 503,
        code: 'shutting_down',
        message: 'the server is shutting down',
      });
    }
  });
  // Who is calling, worked out once per request after the shutdown check.
  const callers = authenticateRequests(app, identity, metrics);
  // While shutting down, answers close their connection, so that a keep-alive client
  // does not hold the server open for Fastify's 72 s keep-alive timeout.
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
    const { status, body } = errorResponse(error, {
      bodyLimit: request.routeOptions.bodyLimit ?? config.bodyLimit,
      uploadLimit: uploadFileLimit,
    });
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    metrics.errors.inc({ code: body.error.code });
    void reply.code(status).headers(errorHeaders(error)).send(body);
  });
  app.setNotFoundHandler((request, reply) => notFound(app, request, reply));

  registerRoutes(app, serverRoutes(context), {
    version: context.version,
    guard: {
      identityOf: callers.identityOf,
      onRefused: () => metrics.authFailures.inc({ code: 'insufficient_scope' }),
    },
  });

  // A JWK Set at a URL is fetched before the first request (a failure keeps none, and says so).
  await identity.start();
  try {
    await app.listen({ port, host, backlog: LISTEN_BACKLOG });
  } catch (error) {
    await coordination.close();
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new PortInUseError({ host, port }, { cause: error });
    }
    throw error;
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  if (!identity.enabled)
    app.log.warn(`no YEOUL_API_KEYS: listening on loopback only (${url}), no authentication`);
  const stopSessionTtl = startSessionTtl(runtime, app.log);
  // Runs a stopped server left behind: taken up (background ones) or closed as lost — at the
  // start, and (instances sharing PostgreSQL) each lease, for those of an instance that died.
  const recover = () =>
    recoverRuns(context).catch((error: unknown) =>
      logger.warn({ err: error }, 'the runs left behind could not be taken up'),
    );
  let recovering = recover();
  const recoverTimer =
    store.backend === 'postgres'
      ? setInterval(() => {
          recovering = recovering.then(recover);
        }, store.leaseMs)
      : undefined;
  recoverTimer?.unref();
  await scheduleRunner.start();
  const webhooks = startWebhookDelivery({
    runtime,
    runs: context.runs,
    metrics,
    logger,
    retryWaitsMs: options.webhookRetryWaitsMs,
  });
  return {
    url,
    runs: {
      onRunEnded: (listener) => context.runs.onRunEnded(listener),
      start: (call, runOptions) => startBackgroundRun(context, call, runOptions),
    },
    async close() {
      closing = true;
      await scheduleRunner.close();
      stopSessionTtl();
      clearInterval(recoverTimer);
      await recovering;
      // Runs get a grace period to finish; then they are cancelled (their tool calls closed),
      // including runs whose stream client left. Connections close as their runs end.
      await Promise.all([app.close(), runtime.runner.settle(shutdownGraceMs)]);
      stopWatchingModel();
      stopCountingFallbacks();
      stopCountingGuardrails();
      await webhooks.close();
      await coordination.close();
      await runtime.close();
    },
  };
}

const methods = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;

/** 405 with `Allow` when the path exists for other methods, else 404, both in the contract's shape. */
function notFound(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = methods.filter(
    (method) => method !== request.method && app.findRoute({ method, url: path }) !== null,
  );
  if (allowed.length > 0) {
    return reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send({
        error: {
          code: 'method_not_allowed',
          message: `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`,
        },
      });
  }
  return reply
    .code(404)
    .send({ error: { code: 'not_found', message: `no route ${request.method} ${path}` } });
}
