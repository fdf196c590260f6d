import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createRuntime,
  type RunningServer,
  type Runtime,
  readServerConfig,
  startServer,
} from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  startPostgresServer,
  startWebhookReceiver,
  type WebhookReceiver,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-webhooks-runs-'));
after(() => rmSync(root, { recursive: true, force: true }));

const secret = 'webhook-test-secret-0001';

/** "write X" → one write_file call (which waits for approval); else an answer naming the message. */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `done (${String(last.content)})` };
  const text = String(last?.content ?? '');
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) {
    const call = {
      id: `w-${index}`,
      name: 'write_file',
      arguments: `{"path":"${file}","content":"x"}`,
    };
    return { kind: 'tool-calls', calls: [call] };
  }
  return { kind: 'text', text: `answer: ${text}` };
}

/** `/ok` answers 200; `/flaky` 500 to a delivery's first two attempts; `/gone` 410. */
const startReceiver = () =>
  startWebhookReceiver(secret, (got) => {
    if (got.path === '/gone') return 410;
    return got.path === '/flaky' && got.attempt <= 2 ? 500 : 200;
  });

/** Every runtime the servers were started on (the last one is the latest server's). */
const runtimes: Runtime[] = [];

/** A server in this process on the scripted model; `env` adds (or, undefined, removes) variables. */
async function serve(baseUrl: string, env: Record<string, string | undefined>) {
  const runtime = await createRuntime(
    readServerConfig({
      YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
      PORT: '0',
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: baseUrl,
      ...env,
    }),
  );
  runtimes.push(runtime);
  return startServer(runtime, { logger: false, webhookRetryWaitsMs: [20, 20, 20, 20, 20, 20, 20] });
}

/** A JSON request to a server: status and body. */
async function call(server: RunningServer, path: string, body?: unknown) {
  const response = await fetch(server.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('runs with webhooks over HTTP (a scripted model, a loopback receiver)', () => {
  let model: FakeOpenAiServer;
  let receiver: WebhookReceiver;
  let server: RunningServer;
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
    receiver = await startReceiver();
    server = await serve(model.baseUrl, {
      YEOUL_WEBHOOK_SECRET: secret,
      YEOUL_WEBHOOK_HOSTS: new URL(receiver.url).host,
    });
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
    await model?.close();
  });

  /** The run once its webhook's latest delivery is no longer pending. */
  const settledWebhook = async (runId: string): Promise<Json> => {
    let run: Json;
    await waitUntil(async () => {
      run = (await call(server, `/api/runs/${runId}?wait=30`)).body;
      return run.webhook?.state !== 'pending';
    }, `run ${runId}'s webhook`);
    return run;
  };

  const deliveriesOf = (runId: string) =>
    receiver.received.filter((entry) => entry.body.run.runId === runId);

  it('delivers one signed run.done, shown as delivered on the run', async () => {
    const started = await call(server, '/api/runs', {
      message: 'hello',
      webhook: { url: `${receiver.url}/ok`, headers: { 'X-Tenant': 'acme' } },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const run = await settledWebhook(started.body.runId);
    assert.equal(run.status, 'done');
    assert.deepEqual(
      { ...run.webhook, deliveries: undefined },
      {
        url: `${receiver.url}/ok`,
        state: 'delivered',
        attempts: 1,
        lastStatus: 200,
        deliveries: undefined,
      },
    );
    assert.equal(run.webhook.deliveries.length, 1);
    assert.equal(run.webhook.deliveries[0].event, 'run.done');
    assert.equal(JSON.stringify(run).includes('acme'), false, 'the headers are never shown');
    const [delivery] = deliveriesOf(run.runId);
    assert.equal(deliveriesOf(run.runId).length, 1);
    assert.ok(delivery?.verified);
    assert.equal(delivery.headers['x-tenant'], 'acme');
    assert.equal(delivery.headers['x-yeoul-event'], 'run.done');
    assert.equal(delivery.headers['x-yeoul-delivery'], delivery.body.id);
    assert.equal(delivery.body.id, run.webhook.deliveries[0].id);
    assert.equal(delivery.body.event, 'run.done');
    assert.equal(delivery.body.run.status, 'done');
    assert.equal(delivery.body.run.sessionId, run.sessionId);
    assert.equal(delivery.body.run.source, 'api');
    assert.equal(delivery.body.run.endedAt, run.endedAt);
    assert.deepEqual(delivery.body.result, run.result);
    const listed = (await call(server, `/api/runs?sessionId=${run.sessionId}`)).body.runs;
    assert.deepEqual(listed[0].webhook, { url: `${receiver.url}/ok` });
  });

  it('delivers run.interrupted, then run.done after the approval', async () => {
    const webhook = `${receiver.url}/ok`;
    const started = await call(server, '/api/runs', {
      message: 'please write a.txt',
      sessionId: 'hook-approve',
      webhook,
    });
    const paused = await settledWebhook(started.body.runId);
    assert.equal(paused.status, 'interrupted', JSON.stringify(paused));
    const [pending] = paused.result.interrupts;
    await call(server, '/api/runs', {
      sessionId: 'hook-approve',
      resume: { decisions: [{ id: pending.id, approve: true }] },
    });
    await waitUntil(
      () => deliveriesOf(started.body.runId).length >= 2,
      'the second delivery of the approved run',
    );
    const finished = await settledWebhook(started.body.runId);
    assert.equal(finished.status, 'done');
    const got = deliveriesOf(started.body.runId);
    assert.deepEqual(
      got.map((entry) => entry.body.event),
      ['run.interrupted', 'run.done'],
    );
    assert.ok(got.every((entry) => entry.verified));
    assert.deepEqual(
      finished.webhook.deliveries.map((entry: Json) => [entry.event, entry.state]),
      [
        ['run.interrupted', 'delivered'],
        ['run.done', 'delivered'],
      ],
    );
    const runtime = runtimes[0] as Runtime;
    assert.equal((await runtime.webhooks.ofRun(started.body.runId)).length, 2);
    const deleted = await fetch(`${server.url}/api/sessions/hook-approve`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    assert.deepEqual(await runtime.webhooks.ofRun(started.body.runId), []);
  });

  it('makes three attempts after two 500s, every one signed over the same body', async () => {
    const started = await call(server, '/api/runs', {
      message: 'retry me',
      webhook: `${receiver.url}/flaky`,
    });
    const run = await settledWebhook(started.body.runId);
    assert.equal(run.webhook.state, 'delivered');
    assert.equal(run.webhook.attempts, 3);
    assert.equal(run.webhook.lastStatus, 200);
    const got = deliveriesOf(run.runId);
    assert.deepEqual(
      got.map((entry) => entry.headers['x-yeoul-attempt']),
      ['1', '2', '3'],
    );
    assert.ok(got.every((entry) => entry.verified));
    assert.equal(new Set(got.map((entry) => JSON.stringify(entry.body))).size, 1);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /^yeoul_webhook_attempts_total\{outcome="retry"\} [1-9]/m);
  });

  it('makes one attempt after a 410 and never another, the delivery shown failed', async () => {
    const started = await call(server, '/api/runs', {
      message: 'gone',
      webhook: `${receiver.url}/gone`,
    });
    const run = await settledWebhook(started.body.runId);
    assert.equal(run.status, 'done');
    const { deliveries, ...latest } = run.webhook;
    assert.deepEqual(latest, {
      url: `${receiver.url}/gone`,
      state: 'failed',
      attempts: 1,
      lastStatus: 410,
      lastError: 'HTTP 410',
    });
    assert.deepEqual(
      deliveries.map((entry: Json) => [entry.event, entry.state, entry.attempts]),
      [['run.done', 'failed', 1]],
    );
    // A later delivery goes through (its retries wait 20 ms here): the failed one was not retried.
    const later = await call(server, '/api/runs', {
      message: 'later',
      webhook: `${receiver.url}/ok`,
    });
    assert.equal((await settledWebhook(later.body.runId)).webhook.state, 'delivered');
    const got = deliveriesOf(run.runId);
    assert.equal(got.length, 1);
    assert.equal(got[0]?.status, 410);
    assert.ok(got[0]?.verified);
    const [stored] = await (runtimes[0] as Runtime).webhooks.ofRun(run.runId);
    assert.equal(stored?.state, 'failed');
    assert.equal(stored?.nextAttemptAt, undefined);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /^yeoul_webhook_attempts_total\{outcome="failed"\} [1-9]/m);
  });

  it('refuses a bad webhook with 400 invalid_webhook, creating nothing', async () => {
    const refused = await call(server, '/api/runs', {
      message: 'hello',
      sessionId: 'hook-bad',
      webhook: 'ftp://example.com/hook',
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'invalid_webhook');
    for (const webhook of [42, { url: `${receiver.url}/ok`, secret: 'x' }]) {
      const bad = await call(server, '/api/runs', {
        message: 'hello',
        sessionId: 'hook-bad',
        webhook,
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, 'invalid_webhook', JSON.stringify(bad.body));
    }
    assert.deepEqual((await call(server, '/api/runs?sessionId=hook-bad')).body.runs, []);
  });
});

describe('runs with webhooks refused by the settings', () => {
  let model: FakeOpenAiServer;
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
  });
  after(() => model?.close());

  it('refuses loopback without YEOUL_WEBHOOK_HOSTS, and any webhook without a secret', async () => {
    for (const [env, code] of [
      [{ YEOUL_WEBHOOK_SECRET: secret }, 'webhook_host_not_allowed'],
      [{}, 'webhook_secret_missing'],
    ] as const) {
      const server = await serve(model.baseUrl, env);
      try {
        const refused = await call(server, '/api/runs', {
          message: 'hello',
          sessionId: 'refused-1',
          webhook: 'http://127.0.0.1:9/hook',
        });
        assert.equal(refused.status, 400, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, code);
        if (code === 'webhook_host_not_allowed')
          assert.match(refused.body.error.message, /127\.0\.0\.1/);
        assert.deepEqual((await call(server, '/api/runs?sessionId=refused-1')).body.runs, []);
        assert.equal((await call(server, '/api/sessions/refused-1')).status, 404);
      } finally {
        await server.close();
      }
    }
  });
});

describe('runs with webhooks on PostgreSQL (the outbox beside the runs)', () => {
  it('delivers a run.done after two 500s, shown as delivered', async () => {
    const database = await startPostgresServer();
    const model = await startFakeOpenAiServer(scripted);
    const receiver = await startReceiver();
    const server = await serve(model.baseUrl, {
      DATABASE_URL: await database.createDatabase(),
      YEOUL_WEBHOOK_SECRET: secret,
      YEOUL_WEBHOOK_HOSTS: new URL(receiver.url).host,
    });
    try {
      const started = await call(server, '/api/runs', {
        message: 'hello',
        webhook: `${receiver.url}/flaky`,
      });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      let run: Json;
      await waitUntil(async () => {
        run = (await call(server, `/api/runs/${started.body.runId}?wait=30`)).body;
        return run.webhook?.state === 'delivered';
      }, 'the delivery on PostgreSQL');
      assert.equal(run.webhook.attempts, 3);
      assert.equal(receiver.received.length, 3);
      assert.ok(receiver.received.every((entry) => entry.verified));
    } finally {
      await server.close();
      await receiver.close();
      await model.close();
      await database.stop();
    }
  });
});
