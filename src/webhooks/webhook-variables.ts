import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';
import { parseHostEntry, type WebhookHostEntry } from './webhook-hosts.ts';

/** The fewest characters a webhook signing secret may have. */
export const minimumSecretLength = 16;

/** `YEOUL_WEBHOOK_HOSTS`'s text: each comma-separated entry a host, pattern, address or range (the bad ones named). */
const hostList = z.string().transform((text, context): WebhookHostEntry[] => {
  const entries: WebhookHostEntry[] = [];
  const texts = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (texts.length === 0) {
    context.addIssue({ code: 'custom', message: 'names no host; use a comma list of hosts' });
  }
  for (const entry of texts) {
    const parsed = parseHostEntry(entry);
    if (parsed === undefined) {
      context.addIssue({
        code: 'custom',
        message: `"${entry}" is not a host, *.domain pattern, IP address or CIDR range (each with an optional :port)`,
      });
    } else entries.push(parsed);
  }
  return entries;
});

/** The environment variables of webhooks: the signing secret and the hosts deliveries may reach. */
export const webhookVariables = z.object({
  YEOUL_WEBHOOK_SECRET: environmentVariable(
    z
      .string()
      .min(minimumSecretLength, {
        error: `must be at least ${minimumSecretLength} characters`,
      })
      .optional(),
    {
      meaning: `the key that signs every webhook delivery (HMAC-SHA256), at least ${minimumSecretLength} characters`,
      default: 'unset = a request naming a webhook gets 400 `webhook_secret_missing`',
    },
  ),
  YEOUL_WEBHOOK_HOSTS: environmentVariable(hostList.optional(), {
    meaning:
      'comma-separated hosts webhooks may reach: `host`, `*.domain`, an IP address or a CIDR range (any spelling of an address), each with an optional `:port` (none = any port); a name matches by name only, never by the addresses it resolves to',
    default: 'unset = any host whose addresses are all public',
  }),
});

/** The webhook variables as read: the secret and the parsed allow-list. */
export type WebhookVariables = z.output<typeof webhookVariables>;
