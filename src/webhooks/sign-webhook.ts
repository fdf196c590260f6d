import { createHmac, timingSafeEqual } from 'node:crypto';
import { yeoulVersion } from '../core/index.ts';

/** The events a run's webhook is told of. */
export const webhookEvents = [
  'run.interrupted',
  'run.done',
  'run.failed',
  'run.cancelled',
] as const;

/** One of {@link webhookEvents}. */
export type WebhookEvent = (typeof webhookEvents)[number];

/** What one attempt's headers are made of. */
export interface AttemptHeaderInput {
  /** The delivery's id (the body's `id`, the receiver's idempotency key). */
  id: string;
  event: WebhookEvent;
  /** 1 for the first attempt, 2 for the next, … */
  attempt: number;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact bytes sent as the body. */
  body: string;
  secret: string;
  /** The webhook's own headers, sent after Yeoul's. */
  headers: Readonly<Record<string, string>>;
}

/**
 * The signature of one attempt: `sha256=` and the hex HMAC-SHA256 of `"<timestamp>.<raw body>"`
 * keyed by the secret.
 * @example
 * webhookSignature(secret, 1767225600, '{"id":"…"}'); // 'sha256=5f0c…'
 */
export function webhookSignature(
  secret: string,
  timestamp: number | string,
  rawBody: string | Uint8Array,
): string {
  const hmac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody);
  return `sha256=${hmac.digest('hex')}`;
}

/**
 * The headers of one attempt, in order: `content-type`, `x-yeoul-delivery`, `x-yeoul-event`,
 * `x-yeoul-attempt`, `x-yeoul-timestamp`, `x-yeoul-signature`, `user-agent: yeoul/<version>`,
 * then the webhook's own headers.
 */
export function attemptHeaders(input: AttemptHeaderInput): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-yeoul-delivery': input.id,
    'x-yeoul-event': input.event,
    'x-yeoul-attempt': String(input.attempt),
    'x-yeoul-timestamp': String(input.timestamp),
    'x-yeoul-signature': webhookSignature(input.secret, input.timestamp, input.body),
    'user-agent': `yeoul/${yeoulVersion}`,
    ...input.headers,
  };
}

/**
 * Whether a received delivery is genuine: its `x-yeoul-signature` matches the raw body and
 * `x-yeoul-timestamp`, and the timestamp is at most `toleranceSeconds` (300) from `now`.
 * Compare the raw bytes as received, before any JSON parsing.
 * @example
 * const ok = verifyWebhookSignature(secret, request.headers['x-yeoul-timestamp'], rawBody,
 *   request.headers['x-yeoul-signature']);
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string | number | undefined,
  rawBody: string | Uint8Array,
  signature: string | undefined,
  options: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  if (timestamp === undefined || signature === undefined) return false;
  const text = String(timestamp);
  if (!/^\d{1,12}$/.test(text)) return false;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - Number(text)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(webhookSignature(secret, text, rawBody));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
