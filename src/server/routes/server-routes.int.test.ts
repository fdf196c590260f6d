import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { anonymousIdentity } from '../../identity/index.ts';
import type { RouteGroup } from '../http/define-route.ts';
import { Metrics } from '../http/metrics.ts';
import { type RouteDocumentation, registerRoutes } from '../http/register-routes.ts';
import { localCoordination } from '../runs/run-coordination.ts';
import { RunLedger } from '../runs/run-ledger.ts';
import { RunSlots } from '../runs/run-slots.ts';
import { createRuntime, type Runtime } from '../runtime/create-runtime.ts';
import { readServerConfig } from '../runtime/server-config.ts';
import type { RouteContext } from './route-context.ts';
import { serverRoutes } from './server-routes.ts';

interface RegisteredRoute {
  method: string;
  url: string;
  openapi: RouteDocumentation['openapi'] | undefined;
  access: RouteDocumentation['access'] | undefined;
}

interface Document {
  paths: Record<string, Record<string, { operationId: string }>>;
}

/** Registers the groups on a bare app, as the server does, and lists what Fastify got. */
async function register(groups: RouteGroup[], around?: (app: FastifyInstance) => void) {
  const app = Fastify();
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const config = route.config as Partial<RouteDocumentation> | undefined;
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, openapi: config?.openapi, access: config?.access });
    }
  });
  registerRoutes(app, groups, { version: 'test' });
  around?.(app);
  await app.ready();
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
  await app.close();
  // Fastify answers HEAD for every GET and OPTIONS for CORS by itself.
  return {
    routes: routes.filter((route) => !['HEAD', 'OPTIONS'].includes(route.method)),
    document,
  };
}

/** A route's place in the document: its declared path, else Fastify's path in OpenAPI's words. */
const documentedPathOf = (route: RegisteredRoute) =>
  route.openapi === 'hidden'
    ? undefined
    : (route.openapi?.path ?? route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));

/** Registered routes that are neither in the document nor declared hidden. */
function undocumented(routes: RegisteredRoute[], document: Document): string[] {
  return routes
    .filter((route) => {
      const path = documentedPathOf(route);
      return path !== undefined && document.paths[path]?.[route.method.toLowerCase()] === undefined;
    })
    .map((route) => `${route.method} ${route.url}`);
}

describe('the server’s routes and /openapi.json', () => {
  let runtime: Runtime;
  let dataDir: string;
  let groups: RouteGroup[];
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yeoul-routes-'));
    runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: dataDir,
        YEOUL_MODEL: 'offline',
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
      }),
    );
    const coordination = localCoordination(4);
    const context: RouteContext = {
      backgroundSlots: new RunSlots(32),
      closeLeftBehind: async () => false,
      runtime,
      queue: coordination.queue,
      streams: coordination.streams,
      runs: new RunLedger(runtime.runs, runtime.checkpointer.instanceId, () => undefined),
      metrics: new Metrics({ activeRuns: () => 0, startedAt: 0 }),
      cancelElsewhere: coordination.cancelElsewhere,
      schedules: { track: () => undefined, forget: () => undefined },
      logger: Fastify().log,
      startedAt: 0,
      version: 'test',
      identityOf: () => anonymousIdentity,
      ownerOf: () => 'anonymous',
    };
    groups = serverRoutes(context);
  });
  after(async () => {
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('documents every registered route, except those declared hidden', async () => {
    const { routes, document } = await register(groups);
    assert.ok(routes.length > 30, `only ${routes.length} routes registered`);
    assert.deepEqual(undocumented(routes, document), []);
  });

  it('documents only routes that are registered, each method once', async () => {
    const { routes, document } = await register(groups);
    const registered = new Set(
      routes.map((route) => `${route.method.toLowerCase()} ${documentedPathOf(route)}`),
    );
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    assert.deepEqual(
      documented.filter((operation) => !registered.has(operation)),
      [],
    );
  });

  it('hides only the console’s and the docs page’s files and the MCP GET refusal, no API route', async () => {
    const { routes } = await register(groups);
    const hidden = routes.filter((route) => route.openapi === 'hidden');
    assert.ok(hidden.some((route) => route.url === '/web/*'));
    assert.deepEqual(
      hidden.filter(
        (route) =>
          !/^\/(?:$|favicon\.(?:svg|ico)$|web\/|client\/|vendor\/|docs(?:$|\/)|openapi\.json$)/.test(
            route.url,
          ) && !(route.url === '/mcp' && route.method === 'GET'),
      ),
      [],
    );
  });

  it('declares who may call each route: read, write, documents, any credentials or anyone', async () => {
    const { routes } = await register(groups);
    const access = Object.fromEntries(
      routes.map((route) => [`${route.method} ${route.url}`, route.access]),
    );
    const expected: Record<string, RouteDocumentation['access']> = {
      'POST /api/agent/invoke': 'yeoul:write',
      'POST /api/agent/stream': 'yeoul:write',
      'GET /api/sessions/:id/stream': 'yeoul:read',
      'GET /api/sessions': 'yeoul:read',
      'GET /api/sessions/:id': 'yeoul:read',
      'GET /api/sessions/:id/history': 'yeoul:read',
      'POST /api/sessions/:id/fork': 'yeoul:write',
      'DELETE /api/sessions/:id': 'yeoul:write',
      'POST /api/sessions/:id/cancel': 'yeoul:write',
      'DELETE /api/sessions/:id/interrupts': 'yeoul:write',
      'POST /api/runs': 'yeoul:write',
      'GET /api/runs': 'yeoul:read',
      'GET /api/runs/:id': 'yeoul:read',
      'GET /api/runs/:id/stream': 'yeoul:read',
      'POST /api/runs/:id/cancel': 'yeoul:write',
      'POST /api/schedules': 'yeoul:write',
      'GET /api/schedules': 'yeoul:read',
      'GET /api/schedules/:id': 'yeoul:read',
      'PATCH /api/schedules/:id': 'yeoul:write',
      'DELETE /api/schedules/:id': 'yeoul:write',
      'POST /api/schedules/:id/run': 'yeoul:write',
      'POST /api/sessions/:id/feedback': 'yeoul:write',
      'POST /api/sessions/prune': 'yeoul:write',
      'GET /api/evals': 'yeoul:read',
      'GET /api/evals/:id': 'yeoul:read',
      'POST /api/evals': 'yeoul:write',
      'POST /api/documents': 'yeoul:documents',
      'GET /api/documents': 'yeoul:read',
      'DELETE /api/documents/:id': 'yeoul:documents',
      'POST /api/search': 'yeoul:read',
      'GET /api/memory': 'yeoul:read',
      'GET /api/memory/*': 'yeoul:read',
      'PUT /api/memory/*': 'yeoul:write',
      'DELETE /api/memory/*': 'yeoul:write',
      'GET /api/graphs': 'yeoul:read',
      'POST /api/graphs/:name/invoke': 'yeoul:write',
      'POST /api/graphs/:name/stream': 'yeoul:write',
      'GET /api/agent/status': 'yeoul:read',
      'GET /api/me': null,
      'GET /api/usage': 'yeoul:read',
      'GET /v1/models': 'yeoul:read',
      'POST /v1/chat/completions': 'yeoul:write',
      'POST /v1/responses': 'yeoul:write',
      'POST /ag-ui/:name': 'yeoul:write',
      'GET /v1/responses/:id': 'yeoul:read',
      'DELETE /v1/responses/:id': 'yeoul:write',
      'POST /v1/conversations': 'yeoul:write',
      'GET /v1/conversations/:id': 'yeoul:read',
      'POST /v1/conversations/:id': 'yeoul:write',
      'DELETE /v1/conversations/:id': 'yeoul:write',
      'GET /v1/conversations/:id/items': 'yeoul:read',
      'POST /v1/conversations/:id/items': 'yeoul:write',
      'GET /v1/conversations/:id/items/:item_id': 'yeoul:read',
      'GET /.well-known/agent-card.json': 'public',
      'GET /a2a/:name/.well-known/agent-card.json': 'public',
      'POST /a2a/:name': null,
      'POST /a2a/:name/message::send': 'yeoul:write',
      'POST /a2a/:name/message::stream': 'yeoul:write',
      'GET /a2a/:name/tasks': 'yeoul:read',
      'GET /a2a/:name/tasks/:id': 'yeoul:read',
      'POST /a2a/:name/tasks/:task': 'yeoul:write',
      'POST /mcp': 'yeoul:read',
      'GET /mcp': null,
      'DELETE /mcp': 'yeoul:read',
      'GET /ok': 'public',
      'GET /info': 'public',
      'POST /assistants/search': 'yeoul:read',
      'POST /assistants/count': 'yeoul:read',
      'GET /assistants/:assistant_id': 'yeoul:read',
      'GET /assistants/:assistant_id/graph': 'yeoul:read',
      'GET /assistants/:assistant_id/schemas': 'yeoul:read',
      'GET /assistants/:assistant_id/subgraphs': 'yeoul:read',
      'POST /threads': 'yeoul:write',
      'POST /threads/search': 'yeoul:read',
      'POST /threads/count': 'yeoul:read',
      'GET /threads/:thread_id': 'yeoul:read',
      'PATCH /threads/:thread_id': 'yeoul:write',
      'DELETE /threads/:thread_id': 'yeoul:write',
      'POST /threads/:thread_id/copy': 'yeoul:write',
      'GET /threads/:thread_id/state': 'yeoul:read',
      'GET /threads/:thread_id/state/:checkpoint_id': 'yeoul:read',
      'POST /threads/:thread_id/history': 'yeoul:read',
      'POST /threads/:thread_id/state': 'yeoul:write',
      'POST /threads/:thread_id/runs': 'yeoul:write',
      'POST /threads/:thread_id/runs/wait': 'yeoul:write',
      'POST /threads/:thread_id/runs/stream': 'yeoul:write',
      'POST /runs': 'yeoul:write',
      'POST /runs/wait': 'yeoul:write',
      'POST /runs/stream': 'yeoul:write',
      'GET /threads/:thread_id/runs': 'yeoul:read',
      'GET /threads/:thread_id/runs/:run_id': 'yeoul:read',
      'GET /threads/:thread_id/runs/:run_id/join': 'yeoul:read',
      'GET /threads/:thread_id/runs/:run_id/stream': 'yeoul:read',
      'POST /threads/:thread_id/runs/:run_id/cancel': 'yeoul:write',
      'POST /runs/crons': 'yeoul:write',
      'POST /threads/:thread_id/runs/crons': 'yeoul:write',
      'PATCH /runs/crons/:cron_id': 'yeoul:write',
      'DELETE /runs/crons/:cron_id': 'yeoul:write',
      'POST /runs/crons/search': 'yeoul:read',
      'POST /runs/crons/count': 'yeoul:read',
      'PUT /store/items': 'yeoul:write',
      'GET /store/items': 'yeoul:read',
      'DELETE /store/items': 'yeoul:write',
      'POST /store/items/search': 'yeoul:read',
      'POST /store/namespaces': 'yeoul:read',
      'GET /healthz': 'public',
      'GET /metrics': 'public',
      'GET /openapi.json': 'public',
      'GET /docs': 'public',
      'GET /': 'public',
    };
    for (const [route, wanted] of Object.entries(expected)) {
      assert.equal(access[route], wanted, route);
    }
    // Everything else is the console's or the docs page's files: open to anyone.
    for (const [route, declared] of Object.entries(access)) {
      if (route in expected) continue;
      assert.match(route, /^GET \/(?:favicon|web|client|vendor|docs)/, route);
      assert.equal(declared, 'public', route);
    }
  });

  it('fails on a route registered around the declarations', async () => {
    const { routes, document } = await register(groups, (app) => {
      app.get('/api/undeclared/:id', async () => ({}));
    });
    assert.deepEqual(undocumented(routes, document), ['GET /api/undeclared/:id']);
  });
});
