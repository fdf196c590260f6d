import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WebhookDeliveryInfo } from './webhook-outbox.ts';
import { webhookStateOf } from './webhook-state-of.ts';

const url = 'https://hooks.example.com/yeoul';
const t0 = Date.UTC(2026, 11, 7, 12, 0, 0);

const interrupted: WebhookDeliveryInfo = {
  id: 'd1',
  runId: 'r1',
  event: 'run.interrupted',
  url,
  state: 'delivered',
  attempts: 1,
  lastStatus: 200,
  deliveredAt: t0 + 10,
  createdAt: t0,
};
const done: WebhookDeliveryInfo = {
  id: 'd2',
  runId: 'r1',
  event: 'run.done',
  url,
  state: 'pending',
  attempts: 2,
  lastStatus: 503,
  lastError: 'HTTP 503',
  nextAttemptAt: t0 + 30_000,
  createdAt: t0 + 20,
};

describe('webhookStateOf', () => {
  it('is pending with no attempts before any delivery', () => {
    assert.deepEqual(webhookStateOf([], url), {
      url,
      state: 'pending',
      attempts: 0,
      lastStatus: null,
      deliveries: [],
    });
  });

  it('shows the latest delivery at the top and every delivery below, times in ISO', () => {
    assert.deepEqual(webhookStateOf([interrupted, done], url), {
      url,
      state: 'pending',
      attempts: 2,
      lastStatus: 503,
      lastError: 'HTTP 503',
      nextAttemptAt: new Date(t0 + 30_000).toISOString(),
      deliveries: [
        {
          id: 'd1',
          event: 'run.interrupted',
          state: 'delivered',
          attempts: 1,
          lastStatus: 200,
          deliveredAt: new Date(t0 + 10).toISOString(),
        },
        {
          id: 'd2',
          event: 'run.done',
          state: 'pending',
          attempts: 2,
          lastStatus: 503,
          lastError: 'HTTP 503',
        },
      ],
    });
  });

  it('stays pending while the run goes, whatever its earlier deliveries came to', () => {
    assert.equal(webhookStateOf([interrupted], url).state, 'delivered');
    assert.equal(webhookStateOf([interrupted], url, { runGoes: true }).state, 'pending');
  });
});
