import type { WebhookEvent } from './sign-webhook.ts';
import type { WebhookDeliveryInfo, WebhookDeliveryState } from './webhook-outbox.ts';

/** One delivery as a run's `webhook.deliveries` lists it. */
export interface WebhookDeliveryView {
  id: string;
  event: WebhookEvent;
  state: WebhookDeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError?: string;
  deliveredAt?: string;
}

/** A run's `webhook` field: the latest delivery's state at the top, every delivery below. */
export interface WebhookView {
  url: string;
  state: WebhookDeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError?: string;
  nextAttemptAt?: string;
  deliveries: WebhookDeliveryView[];
}

/**
 * The `webhook` field of `GET /api/runs/:id`: the top-level fields are the latest delivery's
 * (`pending` with no attempts while the run has none, or while `runGoes`), times in ISO.
 * @example
 * run.webhook = webhookStateOf(await outbox.ofRun(run.runId), run.webhookUrl);
 */
export function webhookStateOf(
  deliveries: readonly WebhookDeliveryInfo[],
  url: string,
  options: { runGoes?: boolean } = {},
): WebhookView {
  const latest = deliveries.at(-1);
  const view: WebhookView = {
    url,
    state: options.runGoes || latest === undefined ? 'pending' : latest.state,
    attempts: latest?.attempts ?? 0,
    lastStatus: latest?.lastStatus ?? null,
    deliveries: deliveries.map(deliveryView),
  };
  if (latest?.lastError !== undefined) view.lastError = latest.lastError;
  if (latest?.nextAttemptAt !== undefined) {
    view.nextAttemptAt = new Date(latest.nextAttemptAt).toISOString();
  }
  return view;
}

function deliveryView(delivery: WebhookDeliveryInfo): WebhookDeliveryView {
  const view: WebhookDeliveryView = {
    id: delivery.id,
    event: delivery.event,
    state: delivery.state,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
  };
  if (delivery.lastError !== undefined) view.lastError = delivery.lastError;
  if (delivery.deliveredAt !== undefined) {
    view.deliveredAt = new Date(delivery.deliveredAt).toISOString();
  }
  return view;
}
