import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  echoCompletion,
  type FakeOpenAiServer,
  runYeoul,
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
  startWebhookReceiver,
  type WebhookReceiver,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

const secret = 'runs-cli-webhook-secret-1';

// Runs of the command line are counted against their owner but never limited; only `yeoul
// serve` (or `dev`) fires schedules and delivers webhooks — a command on the same data folder
// does neither, and what it leaves pending is delivered by the next server.
describe('runs of the command line beside background work (yeoul processes)', () => {
  let model: FakeOpenAiServer;
  let receiver: WebhookReceiver;
  let failing = true;
  let server: ServeProcess | undefined;
  const dataDir = join(root, 'data');
  const env = () => ({
    YEOUL_MODEL: 'compat:scripted',
    YEOUL_COMPAT_BASE_URL: model.baseUrl,
    YEOUL_WEBHOOK_SECRET: secret,
    YEOUL_WEBHOOK_HOSTS: receiver.host,
    YEOUL_REQUESTS_PER_MINUTE: '1',
  });
  before(async () => {
    model = await startFakeOpenAiServer(echoCompletion);
    receiver = await startWebhookReceiver(secret, () => (failing ? 500 : 200));
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
    await model?.close();
  });

  const call = async (path: string, body?: unknown): Promise<Json> => {
    const response = await fetch((server as ServeProcess).url + path, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { ...((await response.json()) as Json), httpStatus: response.status };
  };

  it('neither fires a schedule nor delivers a webhook, and is counted, never limited', async () => {
    server = await startServeProcess(dataDir, env(), ['--no-sample']);
    const started = await call('/api/runs', { message: 'job', webhook: `${receiver.url}/hook` });
    assert.equal(started.httpStatus, 202);
    await waitUntil(async () => {
      const run = await call(`/api/runs/${started.runId}`);
      return run.webhook?.state === 'pending' && run.webhook.attempts >= 1;
    }, 'the first refused attempt');
    const schedule = await call('/api/schedules', { cron: '* * * * * *', message: 'tick' });
    assert.equal(schedule.httpStatus, 201);
    await waitUntil(
      async () => (await call(`/api/runs?scheduleId=${schedule.id}`)).runs.length >= 1,
      'a firing',
    );
    const counted = async () => (await call('/api/usage')).total.requests as number;
    const countedBefore = await counted();
    await server.stop();

    // No server: the schedule is due every second and the delivery's next attempt in 1 s.
    const stoppedAt = Date.now();
    const heard = receiver.received.length;
    for (const message of ['first question', 'second question']) {
      const asked = await runYeoul(['ask', message, '--session', 'cli-1', '--data', dataDir], {
        env: env(),
      });
      assert.equal(asked.code, 0, asked.stderr);
      assert.match(asked.stdout, new RegExp(`echo: ${message}`));
    }
    const listed = await runYeoul(['schedules', 'list', '--json', '--data', dataDir], {
      env: env(),
    });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(receiver.received.length, heard, 'no attempt from a command');
    const restartedAt = Date.now();

    failing = false;
    server = await startServeProcess(dataDir, env(), ['--no-sample']);
    const runs = (await call(`/api/runs?scheduleId=${schedule.id}&limit=200`)).runs as Json[];
    const fromCommands = runs.filter((run) => {
      const at = Date.parse(run.createdAt);
      return at > stoppedAt && at < restartedAt;
    });
    assert.deepEqual(fromCommands, [], 'no firing while only commands ran');
    // The command line's two runs were counted (over the limit of 1 a minute, yet answered).
    assert.equal(await counted(), countedBefore + 2);
    const history = await call('/api/sessions/cli-1/history');
    assert.ok(history.steps.length > 0);
    assert.ok(history.steps.every((step: Json) => typeof step.runId === 'string'));
    // The pending delivery is made by the server, once.
    await waitUntil(
      async () => (await call(`/api/runs/${started.runId}`)).webhook.state === 'delivered',
      'the delivery after the restart',
      60_000,
    );
    const run = await call(`/api/runs/${started.runId}`);
    assert.equal(receiver.deliveredCount(run.webhook.deliveries[0].id), 1);
    assert.ok(receiver.received.every((got) => got.verified));
  });
});
