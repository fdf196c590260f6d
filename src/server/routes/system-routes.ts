import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { statusResponseSchema } from '../../protocol/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from './route-context.ts';

/** The Swagger UI files the docs page loads, from the swagger-ui-dist package (no CDN). */
const swaggerFiles: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Yeoul API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/swagger-ui.css"><link rel="icon" href="/docs/favicon-32x32.png">
</head><body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const docsInit = `window.ui = SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout', persistAuthorization: true,
});`;

/** GET /api/agent/status, /healthz, /metrics and the API docs page at /docs (Swagger UI). */
export function systemRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;
  const swaggerDir = dirname(
    createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
  );

  const getStatus = defineRoute({
    method: 'GET',
    path: '/api/agent/status',
    scope: 'yeoul:read',
    operationId: 'getStatus',
    summary: 'Server status, model, store and search state',
    responses: { 200: { description: 'status', schema: statusResponseSchema } },
    handler: async () => {
      const health = runtime.model.health;
      const search = runtime.searchHealth();
      // The chain: the primary first, each with its state; a chain always has one model.
      const models = runtime.model.chain.describe().map((link) => ({
        ...link,
        lastError: link.lastError && { ...link.lastError, at: isoTime(link.lastError.at) },
        coolingDownUntil: link.coolingDownUntil === null ? null : isoTime(link.coolingDownUntil),
      }));
      return {
        // Degraded when the latest model call found no model that answered.
        status: health.failing || search.state !== 'ok' ? 'degraded' : 'ok',
        version: context.version,
        model: models[0]?.model ?? '',
        fallbacks: models.slice(1).map((link) => link.model),
        lastModelError: health.lastError
          ? { ...health.lastError, at: isoTime(health.lastError.at) }
          : null,
        models,
        answeredBy: health.answeredBy
          ? { model: health.answeredBy.model, at: isoTime(health.answeredBy.at) }
          : null,
        embeddingModel: runtime.embedder?.name ?? null,
        tools: runtime.registry.describe(runtime.toolEnvironment).map((tool) => tool.name),
        graphs: runtime.graphs.names(),
        uptimeSeconds: Math.round((Date.now() - context.startedAt) / 1000),
        activeRuns: runtime.runner.activeRuns,
        store: { backend: runtime.store.backend, instanceId: runtime.checkpointer.instanceId },
        search,
        mcpServers: runtime.mcp.status(),
        config: runtime.configState,
        limits: {
          maxInputTokens: runtime.model.settings.maxInputTokens,
          bodyLimit: runtime.config.bodyLimit,
        },
        guardrails: runtime.app.guardrails.describe(),
      };
    },
  });

  const health = defineRoute({
    method: 'GET',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness: answers while the server runs',
    public: true,
    responses: { 200: { description: 'alive' } },
    handler: async () => ({ status: 'ok' }),
  });

  const metrics = defineRoute({
    method: 'GET',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics: requests, runs, model and tool calls, errors',
    public: true,
    responses: {
      200: { description: 'Prometheus text format', content: { 'text/plain': { type: 'string' } } },
    },
    handler: async (_request, reply) => {
      reply.header('content-type', context.metrics.contentType);
      return context.metrics.render();
    },
  });

  // The API docs page reads /openapi.json; it and its files are not API operations.
  const docs = defineRoute({
    method: 'GET',
    path: '/docs',
    hidden: true,
    public: true,
    logLevel: 'debug',
    handler: async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage),
  });
  const docsScript = defineRoute({
    method: 'GET',
    path: '/docs/init.js',
    hidden: true,
    public: true,
    logLevel: 'debug',
    handler: async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(docsInit),
  });
  // The few files of the page, read once when first asked for.
  const files = new Map<string, Promise<Buffer>>();
  const docsFile = defineRoute({
    method: 'GET',
    path: '/docs/:file',
    hidden: true,
    public: true,
    logLevel: 'debug',
    handler: async (request, reply) => {
      const { file } = request.params as { file: string };
      if (!Object.hasOwn(swaggerFiles, file)) {
        throw new HttpError({ status: 404, code: 'not_found', message: `no file /docs/${file}` });
      }
      let content = files.get(file);
      if (content === undefined) {
        content = readFile(join(swaggerDir, file));
        files.set(file, content);
        content.catch(() => files.delete(file));
      }
      reply.header('cache-control', 'public, max-age=86400');
      return reply.type(swaggerFiles[file] as string).send(await content);
    },
  });

  return {
    tag: { name: 'system', description: 'Status, health and metrics' },
    routes: [getStatus, health, metrics, docs, docsScript, docsFile],
  };
}

function isoTime(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}
