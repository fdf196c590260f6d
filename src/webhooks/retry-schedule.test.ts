import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultRetryWaitsMs, retryAfterMs, retryWaitMs } from './retry-schedule.ts';

describe('retryWaitMs', () => {
  it('waits 1 s, 5 s, 30 s, 2 min, 10 min, 1 h and 6 h before attempts 2 to 8', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempt) =>
      retryWaitMs({ attempt, status: 500, random: () => 0.5 }),
    );
    assert.deepEqual(waits, [...defaultRetryWaitsMs]);
    assert.deepEqual(defaultRetryWaitsMs, [1e3, 5e3, 30e3, 120e3, 600e3, 3600e3, 21600e3]);
  });

  it('varies each wait by at most 10 % either way', () => {
    assert.equal(retryWaitMs({ attempt: 3, status: null, random: () => 0 }), 27_000);
    assert.equal(retryWaitMs({ attempt: 3, status: null, random: () => 0.999_999_9 }), 33_000);
  });

  it('takes a longer Retry-After on a 429 or 503, up to 6 h, and ignores it otherwise', () => {
    const at = (status: number, retryAfter: string) =>
      retryWaitMs({ attempt: 1, status, retryAfter, random: () => 0.5 });
    assert.equal(at(429, '120'), 120_000);
    assert.equal(at(503, '120'), 120_000);
    assert.equal(at(503, '0'), 1_000);
    assert.equal(at(503, '999999'), 21_600_000);
    assert.equal(at(500, '120'), 1_000);
    assert.equal(at(503, 'Wed, 21 Oct 2015 07:28:00 GMT'), 1_000);
  });

  it('reads Retry-After as whole seconds only', () => {
    assert.equal(retryAfterMs(' 30 '), 30_000);
    assert.equal(retryAfterMs('1.5'), undefined);
    assert.equal(retryAfterMs('-1'), undefined);
    assert.equal(retryAfterMs(undefined), undefined);
  });
});
