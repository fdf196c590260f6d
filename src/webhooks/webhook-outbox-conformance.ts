import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { WebhookEnqueueInput, WebhookOutbox } from './webhook-outbox.ts';

/** An outbox the suite opens, and how to release it. */
export interface OpenedWebhookOutbox {
  outbox: WebhookOutbox;
  /** Another outbox on the same data, as a second instance (or process) would open it. */
  another(): Promise<WebhookOutbox> | WebhookOutbox;
  close(): Promise<void> | void;
}

const t0 = Date.UTC(2026, 11, 7, 12, 0, 0);

/** A run's `run.done` delivery as tests enqueue it (headers that must never be shown, a non-ASCII body). */
export function sampleWebhookInput(
  runId: string,
  extra: Partial<WebhookEnqueueInput> = {},
): WebhookEnqueueInput {
  return {
    runId,
    event: 'run.done',
    url: 'https://hooks.example.com/yeoul',
    headers: { authorization: 'Bearer secret-token', 'x-team': 'café ops' },
    body: {
      run: {
        runId,
        sessionId: 's1',
        status: 'done',
        source: 'api',
        createdAt: new Date(t0).toISOString(),
        startedAt: new Date(t0).toISOString(),
        endedAt: new Date(t0 + 5).toISOString(),
      },
      result: { status: 'published', answer: '"quoted" \\ 😀 한국어\n' },
    },
    ...extra,
  };
}

/**
 * The behaviour every WebhookOutbox backend must have (SQLite, PostgreSQL). `open` gives a
 * fresh, empty outbox each time.
 */
export function webhookOutboxConformance(
  name: string,
  open: () => Promise<OpenedWebhookOutbox> | OpenedWebhookOutbox,
): void {
  describe(`${name} webhook outbox (conformance)`, () => {
    let opened: OpenedWebhookOutbox;
    let outbox: WebhookOutbox;
    beforeEach(async () => {
      opened = await open();
      outbox = opened.outbox;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('stores a delivery due at once, its body fixed with its id, event and time', async () => {
      const stored = await outbox.enqueue(sampleWebhookInput('r1'), t0);
      const body = JSON.parse(stored.body);
      assert.deepEqual(Object.keys(body), ['id', 'event', 'createdAt', 'run', 'result']);
      assert.equal(body.id, stored.id);
      assert.equal(body.event, 'run.done');
      assert.equal(body.createdAt, new Date(t0).toISOString());
      assert.deepEqual(await outbox.claimDue(t0 - 1, 10, 'i1', 60_000), []);
      const [claimed, ...more] = await outbox.claimDue(t0, 10, 'i1', 60_000);
      assert.equal(more.length, 0);
      assert.equal(claimed?.body, stored.body);
      assert.deepEqual(claimed?.headers, sampleWebhookInput('r1').headers);
      assert.equal(claimed?.attempts, 0);
      assert.equal(await outbox.nextDue(), t0 + 60_000);
    });

    it('lists a run’s deliveries oldest first, never with their headers or body', async () => {
      const first = await outbox.enqueue(
        sampleWebhookInput('r1', { event: 'run.interrupted' }),
        t0,
      );
      const second = await outbox.enqueue(sampleWebhookInput('r1'), t0 + 1);
      await outbox.enqueue(sampleWebhookInput('r2'), t0);
      const listed = await outbox.ofRun('r1');
      assert.deepEqual(listed, [
        {
          id: first.id,
          runId: 'r1',
          event: 'run.interrupted',
          url: 'https://hooks.example.com/yeoul',
          state: 'pending',
          attempts: 0,
          lastStatus: null,
          nextAttemptAt: t0,
          createdAt: t0,
        },
        { ...listed[1], id: second.id, event: 'run.done', createdAt: t0 + 1 },
      ]);
      assert.doesNotMatch(JSON.stringify(listed), /secret-token|published/);
      assert.deepEqual(await outbox.ofRun('never-seen'), []);
    });

    it('leases a claimed delivery until its lease ends, and claims the due ones up to the limit', async () => {
      for (let index = 0; index < 5; index += 1)
        await outbox.enqueue(sampleWebhookInput(`r${index}`), t0 + index);
      const first = await outbox.claimDue(t0 + 10, 3, 'i1', 1000);
      assert.deepEqual(
        first.map((delivery) => delivery.runId),
        ['r0', 'r1', 'r2'],
      );
      const rest = await outbox.claimDue(t0 + 10, 10, 'i2', 1000);
      assert.deepEqual(
        rest.map((delivery) => delivery.runId),
        ['r3', 'r4'],
      );
      assert.deepEqual(await outbox.claimDue(t0 + 500, 10, 'i2', 1000), []);
      assert.equal((await outbox.claimDue(t0 + 1010, 10, 'i2', 1000)).length, 5);
    });

    it('records each outcome: a retry waits for its time, delivered and failed end it', async () => {
      const a = await outbox.enqueue(sampleWebhookInput('ra'), t0);
      const b = await outbox.enqueue(sampleWebhookInput('rb'), t0);
      await outbox.claimDue(t0, 10, 'i1', 60_000);
      await outbox.record(a.id, {
        kind: 'retry',
        status: 500,
        error: 'HTTP 500',
        nextAttemptAt: t0 + 1000,
      });
      await outbox.record(b.id, { kind: 'failed', status: 410, error: 'HTTP 410' });
      assert.equal(await outbox.nextDue(), t0 + 1000);
      assert.deepEqual(await outbox.claimDue(t0 + 999, 10, 'i1', 60_000), []);
      const [again] = await outbox.claimDue(t0 + 1000, 10, 'i1', 60_000);
      assert.equal(again?.id, a.id);
      assert.equal(again?.attempts, 1);
      await outbox.record(a.id, { kind: 'delivered', status: 204, at: t0 + 1100 });
      const [ra] = await outbox.ofRun('ra');
      assert.deepEqual(ra, {
        ...ra,
        state: 'delivered',
        attempts: 2,
        lastStatus: 204,
        deliveredAt: t0 + 1100,
      });
      assert.equal(ra?.nextAttemptAt, undefined);
      assert.equal(ra?.lastError, undefined);
      const [rb] = await outbox.ofRun('rb');
      assert.deepEqual(rb, {
        ...rb,
        state: 'failed',
        attempts: 1,
        lastStatus: 410,
        lastError: 'HTTP 410',
      });
      assert.equal(await outbox.nextDue(), undefined);
      assert.deepEqual(await outbox.claimDue(t0 + 10_000_000, 10, 'i1', 60_000), []);
    });

    it('records an attempt that got no answer with a null status', async () => {
      const a = await outbox.enqueue(sampleWebhookInput('ra'), t0);
      await outbox.claimDue(t0, 10, 'i1', 60_000);
      await outbox.record(a.id, {
        kind: 'retry',
        status: null,
        error: 'ECONNREFUSED',
        nextAttemptAt: t0 + 5,
      });
      const [ra] = await outbox.ofRun('ra');
      assert.equal(ra?.lastStatus, null);
      assert.equal(ra?.lastError, 'ECONNREFUSED');
      assert.equal(ra?.nextAttemptAt, t0 + 5);
    });

    it('deletes only the deleted run’s deliveries', async () => {
      await outbox.enqueue(sampleWebhookInput('r1'), t0);
      await outbox.enqueue(sampleWebhookInput('r1', { event: 'run.failed' }), t0);
      await outbox.enqueue(sampleWebhookInput('r2'), t0);
      await outbox.deleteRun('r1');
      await outbox.deleteRun('never-seen');
      assert.deepEqual(await outbox.ofRun('r1'), []);
      assert.equal((await outbox.ofRun('r2')).length, 1);
      assert.equal((await outbox.claimDue(t0, 10, 'i1', 1000)).length, 1);
    });

    it('gives each due delivery to exactly one of two instances claiming at once', async () => {
      const other = await opened.another();
      const ids = new Set<string>();
      for (let index = 0; index < 40; index += 1)
        ids.add((await outbox.enqueue(sampleWebhookInput(`r${index}`), t0)).id);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? outbox : other).claimDue(t0, 7, `i${index}`, 60_000),
        ),
      );
      const claimed = claims.flat().map((delivery) => delivery.id);
      assert.equal(new Set(claimed).size, claimed.length);
      assert.deepEqual(new Set(claimed), ids);
    });
  });
}
