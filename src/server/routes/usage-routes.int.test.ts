import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { scopes } from '../../identity/index.ts';
import { errorResponse } from '../http/http-error.ts';
import { Metrics } from '../http/metrics.ts';
import { registerRoutes } from '../http/register-routes.ts';
import { localCoordination } from '../runs/run-coordination.ts';
import { RunLedger } from '../runs/run-ledger.ts';
import { RunSlots } from '../runs/run-slots.ts';
import { createRuntime, type Runtime } from '../runtime/create-runtime.ts';
import { readServerConfig } from '../runtime/server-config.ts';
import type { RouteContext } from './route-context.ts';
import { usageRoutes } from './usage-routes.ts';

// The caller and whether it is an admin come from test headers here: GET /api/usage only asks
// the route context, whatever proves who is calling.
describe('GET /api/usage for admins', () => {
  let runtime: Runtime;
  let dataDir: string;
  let app: FastifyInstance;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yeoul-usage-routes-'));
    runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: dataDir,
        YEOUL_MODEL: 'offline',
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_TOKENS_PER_MONTH: '1000',
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
      ownerOf: (request) => String(request.headers['x-owner'] ?? 'anonymous'),
      identityOf: (request) => ({
        owner: String(request.headers['x-owner'] ?? 'anonymous'),
        via: 'key',
        scopes: new Set(scopes),
        admin: request.headers['x-admin'] === 'yes',
        expiresAt: null,
      }),
    };
    app = Fastify();
    app.setErrorHandler((error, _request, reply) => {
      const { status, body } = errorResponse(error);
      void reply.code(status).send(body);
    });
    registerRoutes(app, [usageRoutes(context)], { version: 'test' });
    await app.ready();
    for (const [owner, tokens] of [
      ['alice', 300],
      ['bob', 50],
      ['admin', 0],
    ] as const) {
      const admission = await runtime.usage.admit(owner, { exempt: owner === 'admin' });
      await admission.finish({ llmCalls: 1, inputTokens: tokens, outputTokens: 0 });
    }
  });
  after(async () => {
    await app?.close();
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url, headers });

  it('gives an admin every owner’s usage with owner=*, by owner', async () => {
    const answer = await get('/api/usage?owner=*', { 'x-owner': 'admin', 'x-admin': 'yes' });
    assert.equal(answer.statusCode, 200);
    const body = answer.json();
    assert.deepEqual(Object.keys(body), ['from', 'to', 'owners']);
    assert.deepEqual(
      body.owners.map((entry: { owner: string; total: { inputTokens: number } }) => [
        entry.owner,
        entry.total.inputTokens,
      ]),
      [
        ['admin', 0],
        ['alice', 300],
        ['bob', 50],
      ],
    );
  });

  it('gives an admin another owner’s report, with that owner’s budget left', async () => {
    const answer = await get('/api/usage?owner=alice', { 'x-owner': 'admin', 'x-admin': 'yes' });
    assert.equal(answer.statusCode, 200);
    const body = answer.json();
    assert.equal(body.owner, 'alice');
    assert.equal(body.total.requests, 1);
    assert.deepEqual(body.remaining, { tokensToday: null, tokensThisMonth: 700 });
  });

  it('refuses other owners to anyone else, 403 insufficient_scope', async () => {
    for (const owner of ['*', 'bob']) {
      const answer = await get(`/api/usage?owner=${encodeURIComponent(owner)}`, {
        'x-owner': 'alice',
      });
      assert.equal(answer.statusCode, 403);
      assert.equal(answer.json().error.code, 'insufficient_scope');
    }
    const own = await get('/api/usage?owner=alice', { 'x-owner': 'alice' });
    assert.equal(own.statusCode, 200);
  });
});
