import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeOpenAiServer,
  type PostgresServer,
  readEvents,
  type ServeProcess,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
  startWebhookReceiver,
  type WebhookReceiver,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-pg-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A "slow" message is answered after 3 s, any other after 100 ms. */
const latency = (request: ChatCompletionRequest) =>
  String(request.body.messages.at(-1)?.content ?? '').includes('slow') ? 3_000 : 100;

const secret = 'runs-postgres-webhook-secret';

describe('runs on two instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let model: FakeOpenAiServer;
  let receiver: WebhookReceiver;
  let a: ServeProcess;
  let b: ServeProcess;
  before(async () => {
    database = await startPostgresServer();
    model = await startFakeOpenAiServer(
      (request) => ({
        kind: 'text',
        text: `answer: ${String(request.body.messages.at(-1)?.content ?? '')}`,
      }),
      { delayMs: latency },
    );
    // Every delivery's first two attempts get a 500: the third is delivered.
    receiver = await startWebhookReceiver(secret, (got) => (got.attempt <= 2 ? 500 : 200));
    const url = await database.createDatabase();
    const env = {
      DATABASE_URL: url,
      YEOUL_MODEL: 'compat:s',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_WEBHOOK_SECRET: secret,
      YEOUL_WEBHOOK_HOSTS: receiver.host,
    };
    a = await startServeProcess(join(root, 'a'), env, ['--no-sample']);
    b = await startServeProcess(join(root, 'b'), env, ['--no-sample']);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await receiver?.close();
    await model?.close();
    await database?.stop();
  });

  const call = async (server: ServeProcess, path: string, body?: unknown, method = 'POST') => {
    const response = await fetch(server.url + path, {
      method: body === undefined ? 'GET' : method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  it('waits on, streams and lists from one instance a run another started', async () => {
    const started = await call(a, '/api/runs', { message: 'hello', sessionId: 'pg-1' });
    assert.equal(started.status, 202);
    const run = await call(b, `/api/runs/${started.body.runId}?wait=30`);
    assert.equal(run.body.status, 'done', JSON.stringify(run.body));
    assert.equal(run.body.result.response, 'answer: hello');
    const events = await readEvents(await fetch(`${b.url}/api/runs/${started.body.runId}/stream`));
    assert.equal(events.at(-1)?.event, 'done');
    const listed = await call(b, '/api/runs?sessionId=pg-1');
    assert.deepEqual(
      listed.body.runs.map((one: Json) => one.runId),
      [started.body.runId],
    );
  });

  it('cancels from one instance a run another runs', async () => {
    const started = await call(a, '/api/runs', { message: 'slow one', sessionId: 'pg-2' });
    for (let tries = 0; tries < 100; tries += 1) {
      if ((await call(b, `/api/runs/${started.body.runId}`)).body.status === 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cancelled = await call(b, `/api/runs/${started.body.runId}/cancel`, {});
    assert.equal(cancelled.status, 202, JSON.stringify(cancelled.body));
    const ended = await call(b, `/api/runs/${started.body.runId}?wait=30`);
    assert.equal(ended.body.status, 'cancelled', JSON.stringify(ended.body));
    assert.deepEqual(ended.body.cancelReason, { type: 'request' });
    const again = await call(a, `/api/runs/${started.body.runId}/cancel`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'run_ended');
  });

  it('fires a schedule once per slot across both instances, each webhook attempt made once', async () => {
    const made = await call(a, '/api/schedules', {
      cron: '*/2 * * * * *',
      message: 'tick',
      webhook: `${receiver.url}/hook`,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    const runsOf = async (): Promise<Json[]> =>
      (await call(b, `/api/runs?scheduleId=${id}`)).body.runs;
    await waitUntil(async () => (await runsOf()).length >= 3, 'three firings', 30_000);
    const paused = await call(a, `/api/schedules/${id}`, { enabled: false }, 'PATCH');
    assert.equal(paused.status, 200);
    // Every run listed (a slot fired just before the change included) ends and is delivered.
    let runs: Json[] = [];
    await waitUntil(
      async () => {
        runs = await runsOf();
        const shown = await Promise.all(
          runs.map(async (run) => (await call(a, `/api/runs/${run.runId}`)).body),
        );
        return shown.every((run) => run.webhook?.state === 'delivered');
      },
      'every firing delivered',
      60_000,
    );
    assert.ok(runs.length >= 3);
    assert.equal(new Set(runs.map((run) => run.scheduledFor)).size, runs.length, 'no slot twice');
    for (const listed of runs) {
      const run = (await call(b, `/api/runs/${listed.runId}`)).body;
      assert.equal(run.status, 'done');
      assert.equal(run.webhook.attempts, 3);
      const [delivery] = run.webhook.deliveries;
      const attempts = receiver.received.filter((got) => got.body.id === delivery.id);
      assert.deepEqual(
        attempts.map((got) => got.attempt),
        [1, 2, 3],
        'one attempt per retry step, whichever instance made it',
      );
      assert.equal(receiver.deliveredCount(delivery.id), 1);
    }
    assert.ok(receiver.received.every((got) => got.verified));
  });
});
