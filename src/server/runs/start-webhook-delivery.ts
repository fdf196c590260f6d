import type { Logger } from 'pino';
import { WebhookDeliverer } from '../../webhooks/index.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import type { RunEvents } from './run-ledger.ts';

/** What delivering webhooks needs: the runtime's outbox and settings, the runs' events, the counters. */
export interface WebhookDeliveryOptions {
  runtime: Pick<Runtime, 'webhooks' | 'webhookSettings' | 'checkpointer'>;
  runs: RunEvents;
  metrics: Pick<Metrics, 'webhookAttempts'>;
  logger: Logger;
  /** The waits before attempts 2 … 8 (tests shorten them); the contract's schedule by default. */
  retryWaitsMs?: readonly number[] | undefined;
}

/**
 * Starts delivering the outbox (pending deliveries a stopped server or a command left
 * included); a run's pause or end stores its delivery in the same write, and wakes the
 * deliverer for its first attempt. Without a signing secret nothing is delivered (no webhook
 * can be accepted either). `close` stops hearing runs and stops the deliverer.
 */
export function startWebhookDelivery(options: WebhookDeliveryOptions): { close(): Promise<void> } {
  const { runtime, logger } = options;
  const { secret, hosts } = runtime.webhookSettings;
  if (secret === undefined) return { close: async () => {} };
  const deliverer = new WebhookDeliverer({
    outbox: runtime.webhooks,
    secret,
    hosts,
    instanceId: runtime.checkpointer.instanceId,
    ...(options.retryWaitsMs === undefined ? {} : { retryWaitsMs: options.retryWaitsMs }),
    onAttempt: (report) => {
      options.metrics.webhookAttempts.inc({ outcome: report.outcome });
      if (report.outcome !== 'delivered') {
        logger.warn(
          {
            deliveryId: report.delivery.id,
            attempt: report.attempt,
            status: report.status,
            error: report.error,
          },
          `webhook delivery ${report.outcome === 'retry' ? 'will be retried' : 'failed'}`,
        );
      }
    },
    onError: (error) =>
      logger.warn({ err: error }, 'the webhook outbox could not be read or written'),
  });
  deliverer.start();
  // The delivery was stored with the run's pause or end: its first attempt goes out at once.
  const stopHearing = options.runs.onRunEnded((_run, delivery) => {
    if (delivery !== undefined) deliverer.wake();
  });
  return {
    async close() {
      stopHearing();
      await deliverer.close();
    },
  };
}
