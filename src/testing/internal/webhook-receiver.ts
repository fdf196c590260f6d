import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../webhooks/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: a receiver reads arbitrary JSON bodies
type Json = any;

/** One request a receiver got: its path, headers, raw and parsed body, and what it answered. */
export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: Json;
  /** Whether `x-yeoul-signature` holds for the raw body and `x-yeoul-timestamp` (within 5 min). */
  verified: boolean;
  /** `x-yeoul-attempt` as a number. */
  attempt: number;
  /** The status it was answered with. */
  status: number;
}

/** A loopback webhook receiver: every request recorded, answered as `answer` says. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` (append a path). */
  url: string;
  /** `127.0.0.1:<port>`, for `YEOUL_WEBHOOK_HOSTS`. */
  host: string;
  received: ReceivedDelivery[];
  /** The 2xx answers, per delivery id (the body's `id`). */
  deliveredCount(id: string): number;
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1 that checks each request's signature with `secret` (as a
 * real receiver would, with `verifyWebhookSignature`) and answers the status `answer` gives
 * for it (200 by default).
 * @example
 * const receiver = await startWebhookReceiver(secret, (got) => (got.attempt <= 2 ? 500 : 200));
 */
export async function startWebhookReceiver(
  secret: string,
  answer: (got: Omit<ReceivedDelivery, 'status'>) => number = () => 200,
): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => request.headers[name] as string | undefined;
      const got = {
        path: request.url ?? '/',
        headers: request.headers,
        raw,
        body: JSON.parse(raw) as Json,
        verified: verifyWebhookSignature(
          secret,
          header('x-yeoul-timestamp'),
          raw,
          header('x-yeoul-signature'),
        ),
        attempt: Number(header('x-yeoul-attempt')),
      };
      const status = answer(got);
      received.push({ ...got, status });
      response.statusCode = status;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received,
    deliveredCount: (id) =>
      received.filter((got) => got.body.id === id && got.status >= 200 && got.status < 300).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
