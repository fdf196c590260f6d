import type {
  WebhookDelivery,
  WebhookEvent,
  WebhookOutbox,
  WebhookPayload,
  WebhookRun,
  WebhookTarget,
  WebhookView,
} from '../../webhooks/index.ts';
import { newDelivery, webhookStateOf } from '../../webhooks/index.ts';
import { goingRunStatuses, type RunRecord, type RunStatus } from './run-store.ts';

/** The event a run's status is to its webhook: a pause for approval or an end; none while it goes. */
const eventOfStatus: Partial<Record<RunStatus, WebhookEvent>> = {
  interrupted: 'run.interrupted',
  done: 'run.done',
  failed: 'run.failed',
  cancelled: 'run.cancelled',
};

/** The webhook stored with a run (`{url, headers}`), or undefined when it has none. */
export function webhookOfRun(run: RunRecord): WebhookTarget | undefined {
  const { webhook } = run;
  if (typeof webhook === 'string') return { url: webhook, headers: {} };
  if (typeof webhook !== 'object' || webhook === null) return undefined;
  const { url, headers } = webhook as { url?: unknown; headers?: unknown };
  if (typeof url !== 'string') return undefined;
  return { url, headers: (headers ?? {}) as Record<string, string> };
}

/** What a webhook says of a run's event: the run's own fields, its `result` and `error` as the API shows them. */
export function webhookPayloadOf(run: RunRecord): WebhookPayload {
  const shown: WebhookRun = {
    runId: run.runId,
    sessionId: run.sessionId,
    status: run.status,
    source: run.source,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
  };
  if (run.scheduleId !== undefined) shown.scheduleId = run.scheduleId;
  if (typeof run.scheduledFor === 'string') shown.scheduledFor = run.scheduledFor;
  if (run.cancelReason !== undefined) shown.cancelReason = run.cancelReason;
  const payload: WebhookPayload = { run: shown };
  if (run.result !== undefined) payload.result = run.result;
  if (run.error !== undefined) payload.error = run.error;
  return payload;
}

/**
 * The delivery of a run's pause or end to its webhook (one per event), to store with that
 * pause or end; undefined for a run without a webhook, or still going.
 */
export function deliveryOfRunEvent(run: RunRecord, now = Date.now()): WebhookDelivery | undefined {
  const target = webhookOfRun(run);
  const event = eventOfStatus[run.status];
  if (target === undefined || event === undefined) return undefined;
  const body = webhookPayloadOf(run);
  return newDelivery(
    { runId: run.runId, event, url: target.url, headers: target.headers, body },
    now,
  );
}

/** A run's `webhook` field for `GET /api/runs/:id`: its deliveries' state (`pending` while it goes). */
export async function webhookViewOf(
  outbox: WebhookOutbox,
  run: RunRecord,
): Promise<WebhookView | undefined> {
  const target = webhookOfRun(run);
  if (target === undefined) return undefined;
  const runGoes = goingRunStatuses.includes(run.status);
  return webhookStateOf(await outbox.ofRun(run.runId), target.url, { runGoes });
}
