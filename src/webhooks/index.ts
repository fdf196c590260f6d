export {
  checkWebhookHost,
  type HostCheck,
  type HostResolver,
  systemResolver,
  type WebhookHostRule,
} from './check-webhook-host.ts';
export { insertDeliveryInPostgres, insertDeliveryInSqlite } from './insert-delivery.ts';
export {
  parseWebhook,
  type WebhookRefusal,
  type WebhookSettings,
  type WebhookTarget,
  webhookShape,
} from './parse-webhook.ts';
export { PostgresWebhookOutbox } from './postgres-webhook-outbox.ts';
export {
  defaultRetryWaitsMs,
  maxAttempts,
  maxRetryAfterMs,
  retryWaitMs,
} from './retry-schedule.ts';
export {
  attemptHeaders,
  verifyWebhookSignature,
  type WebhookEvent,
  webhookEvents,
  webhookSignature,
} from './sign-webhook.ts';
export { SqliteWebhookOutbox } from './sqlite-webhook-outbox.ts';
export {
  type WebhookAttemptReport,
  WebhookDeliverer,
  type WebhookDelivererOptions,
} from './webhook-deliverer.ts';
export {
  isPublicAddress,
  parseHostEntry,
  type WebhookHostEntry,
} from './webhook-hosts.ts';
export { webhookMigrations } from './webhook-migrations.ts';
export type {
  WebhookAttemptOutcome,
  WebhookDelivery,
  WebhookDeliveryInfo,
  WebhookDeliveryState,
  WebhookEnqueueInput,
  WebhookOutbox,
  WebhookPayload,
  WebhookRun,
} from './webhook-outbox.ts';
export { newDelivery } from './webhook-outbox.ts';
export {
  type WebhookDeliveryView,
  type WebhookView,
  webhookStateOf,
} from './webhook-state-of.ts';
export {
  minimumSecretLength,
  type WebhookVariables,
  webhookVariables,
} from './webhook-variables.ts';
