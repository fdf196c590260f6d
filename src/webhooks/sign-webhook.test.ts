import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { yeoulVersion } from '../core/index.ts';
import { attemptHeaders, verifyWebhookSignature, webhookSignature } from './sign-webhook.ts';

const secret = 'whsec-0123456789abcdef';
const body = '{"id":"d1","event":"run.done","note":"여울 ✓"}';

describe('webhook signing', () => {
  it('signs "<timestamp>.<raw body>" with HMAC-SHA256 in hex', () => {
    const expected = createHmac('sha256', secret).update(`1767225600.${body}`).digest('hex');
    assert.equal(webhookSignature(secret, 1767225600, body), `sha256=${expected}`);
    assert.equal(webhookSignature(secret, '1767225600', Buffer.from(body)), `sha256=${expected}`);
  });

  it('sends Yeoul’s headers in order, then the webhook’s own', () => {
    const headers = attemptHeaders({
      id: 'd1',
      event: 'run.done',
      attempt: 3,
      timestamp: 1767225600,
      body,
      secret,
      headers: { authorization: 'Bearer t', 'x-team': 'ops' },
    });
    assert.deepEqual(Object.keys(headers), [
      'content-type',
      'x-yeoul-delivery',
      'x-yeoul-event',
      'x-yeoul-attempt',
      'x-yeoul-timestamp',
      'x-yeoul-signature',
      'user-agent',
      'authorization',
      'x-team',
    ]);
    assert.equal(headers['x-yeoul-attempt'], '3');
    assert.equal(headers['user-agent'], `yeoul/${yeoulVersion}`);
    assert.equal(headers['content-type'], 'application/json');
  });

  it('verifies a genuine delivery and refuses a changed body, a wrong key or a stale timestamp', () => {
    const now = 1767225600_000;
    const timestamp = now / 1000;
    const signature = webhookSignature(secret, timestamp, body);
    assert.equal(verifyWebhookSignature(secret, String(timestamp), body, signature, { now }), true);
    assert.equal(verifyWebhookSignature(secret, timestamp, `${body} `, signature, { now }), false);
    assert.equal(verifyWebhookSignature(`${secret}x`, timestamp, body, signature, { now }), false);
    assert.equal(verifyWebhookSignature(secret, timestamp + 1, body, signature, { now }), false);
    assert.equal(verifyWebhookSignature(secret, timestamp, body, 'sha256=00', { now }), false);
    assert.equal(verifyWebhookSignature(secret, undefined, body, signature, { now }), false);
    assert.equal(
      verifyWebhookSignature(secret, timestamp, body, signature, { now: now + 301_000 }),
      false,
    );
    assert.equal(
      verifyWebhookSignature(secret, timestamp, body, signature, { now: now - 300_000 }),
      true,
    );
    assert.equal(
      verifyWebhookSignature(secret, timestamp, body, signature, {
        now: now + 3_600_000,
        toleranceSeconds: 3600,
      }),
      true,
    );
  });
});
