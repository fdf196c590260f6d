import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Metrics } from './metrics.ts';

describe('Metrics', () => {
  it('counts webhook attempts by outcome, each outcome shown from the start', async () => {
    const metrics = new Metrics({ activeRuns: () => 0, startedAt: 0 });
    metrics.webhookAttempts.inc({ outcome: 'retry' });
    const text = await metrics.render();
    assert.match(text, /^yeoul_webhook_attempts_total\{outcome="delivered"\} 0$/m);
    assert.match(text, /^yeoul_webhook_attempts_total\{outcome="retry"\} 1$/m);
    assert.match(text, /^yeoul_webhook_attempts_total\{outcome="failed"\} 0$/m);
  });
});
