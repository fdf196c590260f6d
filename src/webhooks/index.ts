export {
  checkWebhookHost,
  type HostCheck,
  type HostResolver,
  systemResolver,
  type WebhookHostRule,
} from './check-webhook-host.ts';
export {
  parseWebhook,
  type WebhookRefusal,
  type WebhookSettings,
  type WebhookTarget,
  webhookShape,
} from './parse-webhook.ts';
export {
  attemptHeaders,
  verifyWebhookSignature,
  type WebhookEvent,
  webhookEvents,
  webhookSignature,
} from './sign-webhook.ts';
export {
  isPublicAddress,
  parseHostEntry,
  type WebhookHostEntry,
} from './webhook-hosts.ts';
export {
  minimumSecretLength,
  type WebhookVariables,
  webhookVariables,
} from './webhook-variables.ts';
