import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetryFailure, retryAfterMs, withRetries } from './retry.ts';

describe('retries', () => {
  it('reads Retry-After in milliseconds, seconds and as a date', () => {
    assert.equal(retryAfterMs({ 'retry-after-ms': '250' }), 250);
    assert.equal(retryAfterMs({ 'retry-after': '2' }), 2000);
    const date = new Date(Date.now() + 3000).toUTCString();
    const fromDate = retryAfterMs({ 'retry-after': date }) ?? 0;
    assert.ok(fromDate > 1000 && fromDate <= 3000);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }), undefined);
    assert.equal(retryAfterMs(undefined), undefined);
  });

  it('stops at the attempt limit with the last error', async () => {
    let calls = 0;
    await assert.rejects(
      withRetries(
        async () => {
          calls += 1;
          throw new Error(`failure ${calls}`);
        },
        { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 100, classify: () => ({ retryable: true }) },
      ),
      (error: unknown) =>
        error instanceof RetryFailure && error.attempts === 3 && error.message === 'failure 3',
    );
    assert.equal(calls, 3);
  });

  it('does not retry a final failure', async () => {
    let calls = 0;
    await assert.rejects(
      withRetries(
        async () => {
          calls += 1;
          throw new Error('bad request');
        },
        { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 100, classify: () => ({ retryable: false }) },
      ),
      { attempts: 1 },
    );
    assert.equal(calls, 1);
  });

  it('rejects with the cancellation reason while waiting to retry', async () => {
    const controller = new AbortController();
    const run = withRetries(
      async () => {
        throw new Error('transient');
      },
      {
        maxAttempts: 3,
        baseDelayMs: 5000,
        maxDelayMs: 10_000,
        signal: controller.signal,
        classify: () => ({ retryable: true }),
      },
    );
    setTimeout(() => controller.abort(new Error('cancelled by client')), 20);
    await assert.rejects(run, /cancelled by client/);
  });
});
