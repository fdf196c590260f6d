import type { Logger } from 'pino';
import { WebhookDeliverer } from '../../webhooks/index.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import type { RunEvents } from './run-ledger.ts';
import { deliverRunEvent } from './run-webhooks.ts';

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
 * Starts delivering the outbox (pending deliveries a stopped server left included) and
 * enqueues one delivery for each pause or end of a run that has a webhook. Without a
 * signing secret nothing is delivered (no webhook can be accepted either). `close` stops
 * hearing runs, waits for the deliveries being stored, and stops the deliverer.
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
  const storing = new Set<Promise<void>>();
  const stopHearing = options.runs.onRunEnded((run) => {
    const stored = deliverRunEvent(deliverer, run)
      .catch((error: unknown) =>
        logger.warn(
          { err: error, runId: run.runId },
          'a run’s webhook delivery could not be stored',
        ),
      )
      .finally(() => storing.delete(stored));
    storing.add(stored);
  });
  return {
    async close() {
      stopHearing();
      await Promise.all(storing);
      await deliverer.close();
    },
  };
}
