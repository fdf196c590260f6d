import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  echoCompletion,
  type FakeOpenAiServer,
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
  startWebhookReceiver,
  type WebhookReceiver,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-webhooks-restart-'));
after(() => rmSync(root, { recursive: true, force: true }));

const secret = 'webhook-restart-secret-01';

describe('a pending webhook delivery across a SIGKILL (yeoul serve processes)', () => {
  let model: FakeOpenAiServer;
  let receiver: WebhookReceiver;
  /** The receiver fails every attempt until the server was killed. */
  let failing = true;
  let server: ServeProcess | undefined;
  before(async () => {
    model = await startFakeOpenAiServer(echoCompletion);
    receiver = await startWebhookReceiver(secret, () => (failing ? 500 : 200));
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
    await model?.close();
  });

  const dataDir = join(root, 'data');
  const serve = async () => {
    server = await startServeProcess(
      dataDir,
      {
        YEOUL_MODEL: 'compat:scripted',
        YEOUL_COMPAT_BASE_URL: model.baseUrl,
        YEOUL_WEBHOOK_SECRET: secret,
        YEOUL_WEBHOOK_HOSTS: receiver.host,
      },
      ['--no-sample'],
    );
    return server;
  };
  const runOf = async (on: ServeProcess, runId: string): Promise<Json> =>
    (await fetch(`${on.url}/api/runs/${runId}`)).json();

  it('is made after the restart: one 2xx per event, its attempts counted, every signature valid', async () => {
    const first = await serve();
    const runIds: string[] = [];
    for (const message of ['first job', 'second job']) {
      const response = await fetch(`${first.url}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message, webhook: `${receiver.url}/hook` }),
      });
      assert.equal(response.status, 202);
      runIds.push(((await response.json()) as Json).runId);
    }
    // Each run ended and its delivery's first attempt was refused and recorded: pending.
    for (const runId of runIds) {
      await waitUntil(async () => {
        const run = await runOf(first, runId);
        return (
          run.status === 'done' && run.webhook.state === 'pending' && run.webhook.attempts >= 1
        );
      }, `run ${runId}'s first refused attempt`);
    }
    await first.kill();
    failing = false;
    const deliveryIds = new Map<string, string>();
    for (const runId of runIds) {
      const [delivery] = receiver.received.filter((got) => got.body.run.runId === runId);
      assert.ok(delivery, `an attempt for run ${runId} before the kill`);
      deliveryIds.set(runId, delivery.body.id);
      assert.equal(receiver.deliveredCount(delivery.body.id), 0);
    }

    const second = await serve();
    // A delivery leased by an attempt the kill cut short waits for its lease (15 s) to end.
    for (const runId of runIds) {
      await waitUntil(
        async () => (await runOf(second, runId)).webhook.state === 'delivered',
        `run ${runId}'s delivery after the restart`,
        60_000,
      );
    }
    for (const runId of runIds) {
      const id = deliveryIds.get(runId) as string;
      const run = await runOf(second, runId);
      assert.equal(run.webhook.deliveries.length, 1, 'one delivery per event');
      assert.equal(run.webhook.deliveries[0].id, id);
      assert.equal(receiver.deliveredCount(id), 1, 'exactly one 2xx per event');
      const attempts = receiver.received.filter((got) => got.body.id === id);
      const last = attempts.at(-1) as (typeof attempts)[number];
      assert.equal(last.status, 200);
      // The attempts made before the kill are counted: the delivered one is not the first.
      assert.ok(last.attempt >= 2, `delivered at attempt ${last.attempt}`);
      assert.equal(run.webhook.attempts, last.attempt);
      assert.equal(new Set(attempts.map((got) => got.raw)).size, 1, 'the same bytes each time');
      assert.equal(last.body.event, 'run.done');
    }
    assert.ok(receiver.received.length >= 4);
    assert.ok(receiver.received.every((got) => got.verified));
  });
});
