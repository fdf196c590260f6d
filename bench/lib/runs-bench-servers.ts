// The servers of `npm run bench:runs`: Yeoul as `yeoul serve` starts it (its own process, SQLite
// in a fresh folder, webhooks signed and allowed to the loopback receiver), a fake
// OpenAI-compatible model that answers after a delay (its own process), and a loopback webhook
// receiver in the bench process that notes when each delivery arrives and checks its signature.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verifyWebhookSignature } from '../../src/webhooks/index.ts';
import { type ReadyProcess, spawnReady, stopProcess } from './ready-process.ts';

/** The signing secret every server of the bench is started with. */
export const webhookSecret = 'bench-runs-webhook-secret-0001';

const script = join(import.meta.dirname, 'bench-server-process.ts');

/** A fake model in its own process: streamed text answers after `delayMs`. */
export function startDelayedModel(env: NodeJS.ProcessEnv, delayMs: number): Promise<ReadyProcess> {
  return spawnReady('fake model', [script, 'fake-model', String(delayMs)], { env });
}

/**
 * Yeoul's server (the one `yeoul serve` starts, `npm start`'s flags) on the model at `modelUrl`,
 * signing webhooks with `webhookSecret` and delivering them to `webhookHost` (`host:port`).
 */
export function startYeoul(
  env: NodeJS.ProcessEnv,
  options: { modelUrl: string; webhookHost?: string; nodeArgs?: string[] },
): Promise<ReadyProcess> {
  return spawnReady(
    'yeoul',
    [
      ...(options.nodeArgs ?? []),
      // For profiling the server: BENCH_YEOUL_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
      ...(process.env.BENCH_YEOUL_NODE_ARGS ?? '').split(' ').filter(Boolean),
      '--max-semi-space-size=8',
      script,
      'yeoul',
    ],
    {
      env: {
        ...env,
        YEOUL_MODEL: 'compat:bench',
        YEOUL_COMPAT_BASE_URL: options.modelUrl,
        YEOUL_WEBHOOK_SECRET: webhookSecret,
        ...(options.webhookHost === undefined ? {} : { YEOUL_WEBHOOK_HOSTS: options.webhookHost }),
      },
    },
  );
}

/** One delivery as the receiver got it: when (epoch ms), its body, and whether its signature held. */
export interface ReceivedDelivery {
  receivedAt: number;
  // biome-ignore lint/suspicious/noExplicitAny: the delivery body is arbitrary JSON
  body: any;
  verified: boolean;
}

/** A loopback webhook receiver answering 200 to every POST. */
export interface WebhookReceiver {
  url: string;
  /** `host:port`, for YEOUL_WEBHOOK_HOSTS. */
  host: string;
  received: ReceivedDelivery[];
  /** Called with each delivery as it arrives. */
  onDelivery?: (delivery: ReceivedDelivery) => void;
  close(): Promise<void>;
}

/** Starts the receiver on an ephemeral loopback port. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const server: Server = createServer((request, response) => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const verified = verifyWebhookSignature(
        webhookSecret,
        request.headers['x-yeoul-timestamp'] as string | undefined,
        raw,
        request.headers['x-yeoul-signature'] as string | undefined,
      );
      const delivery = { receivedAt, body: JSON.parse(raw), verified };
      receiver.received.push(delivery);
      receiver.onDelivery?.(delivery);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** A JSON request to a server: the status and the parsed body. */
export async function callJson(
  url: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads arbitrary JSON answers
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Waits until the server has no run queued or running; the milliseconds that took. */
export async function waitForRunsToEnd(serverUrl: string, maxMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { body } = await callJson(`${serverUrl}/api/runs?status=queued,running&limit=1`);
    if (body.runs.length === 0) return Math.round(performance.now() - started);
    if (performance.now() - started > maxMs) {
      throw new Error(`runs still going after ${maxMs} ms (${body.runs[0].runId} among them)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs `work` on each item with at most `concurrency` at once. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Stops every started process (those given as undefined skipped). */
export async function stopAll(...processes: Array<ReadyProcess | undefined>): Promise<void> {
  await Promise.all(processes.map((each) => (each === undefined ? undefined : stopProcess(each))));
}
