import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { documentsBody, invokeBody, searchBody } from '../schemas.ts';
import type { RouteContext } from './route-context.ts';

/** GET /api/agent/status, /healthz, /metrics and /openapi.json. */
export function registerSystemRoutes(app: FastifyInstance, context: RouteContext): void {
  const { runtime } = context;

  app.get('/api/agent/status', async () => ({
    status: 'ok',
    version: context.version,
    model: `${runtime.model.info.provider}:${runtime.model.info.modelId}`,
    embeddingModel: runtime.embedder?.name ?? null,
    tools: runtime.tools.registry.describe(runtime.toolEnvironment).map((tool) => tool.name),
    graphs: ['chat', 'react', 'ops'],
    uptimeSeconds: Math.round((Date.now() - context.startedAt) / 1000),
    activeRuns: context.sessions.active,
  }));

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return context.metrics.render({
      yeoul_active_runs: context.sessions.active,
      yeoul_uptime_seconds: Math.round((Date.now() - context.startedAt) / 1000),
    });
  });

  app.get('/openapi.json', async () => openApiDocument(context.version));
}

const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

/** The OpenAPI document, with request bodies generated from the zod schemas that validate them. */
export function openApiDocument(version: string) {
  const body = (schema: z.ZodType) => ({
    required: true,
    content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'input' }) } },
  });
  const errors = Object.fromEntries(
    ['400', '401', '404', '409', '413', '500', '503'].map((status) => [
      status,
      { description: 'error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  );
  const ok = (description: string) => ({ description });
  return {
    openapi: '3.1.0',
    info: { title: 'Yeoul', version, description: 'Graph-based AI agent server' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/api/agent/invoke': {
        post: {
          requestBody: body(invokeBody),
          responses: { '200': ok('the answer payload'), ...errors },
        },
      },
      '/api/agent/stream': {
        post: {
          requestBody: body(invokeBody),
          responses: {
            '200': ok('text/event-stream: step, token, tool-call, tool-result, done, error'),
            ...errors,
          },
        },
      },
      '/api/agent/status': { get: { responses: { '200': ok('server status') } } },
      '/api/sessions': { get: { responses: { '200': ok('the caller’s sessions') } } },
      '/api/sessions/{id}': {
        get: { responses: { '200': ok('{sessionId, messages, summary}'), ...errors } },
        delete: { responses: { '204': ok('deleted'), ...errors } },
      },
      '/api/documents': {
        post: {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: z.toJSONSchema(documentsBody, { io: 'input' }) },
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { file: { type: 'string', format: 'binary' } },
                },
              },
            },
          },
          responses: { '201': ok('{ids, chunks}'), ...errors },
        },
        get: { responses: { '200': ok('the documents') } },
      },
      '/api/documents/{id}': { delete: { responses: { '204': ok('deleted'), ...errors } } },
      '/api/search': {
        post: { requestBody: body(searchBody), responses: { '200': ok('{hits}'), ...errors } },
      },
      '/healthz': { get: { security: [], responses: { '200': ok('alive') } } },
      '/metrics': { get: { security: [], responses: { '200': ok('Prometheus text format') } } },
    },
  };
}
