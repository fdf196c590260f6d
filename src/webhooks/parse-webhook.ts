import { checkWebhookHost, type WebhookHostRule } from './check-webhook-host.ts';

/** A webhook as stored and sent: the normalised URL and the caller's own headers (names in lower case). */
export interface WebhookTarget {
  url: string;
  headers: Record<string, string>;
}

/** What a webhook is checked against: the signing secret (unset = webhooks refused) and the host rule. */
export interface WebhookSettings extends WebhookHostRule {
  /** `YEOUL_WEBHOOK_SECRET`; undefined = every webhook refused with `webhook_secret_missing`. */
  secret?: string | undefined;
}

/** Why a webhook was refused, with the code the API answers 400 with. */
export interface WebhookRefusal {
  code: 'invalid_webhook' | 'webhook_host_not_allowed' | 'webhook_secret_missing';
  message: string;
}

const maxUrlLength = 2048;
const maxHeaders = 20;
const maxValueLength = 1024;
const headerName = /^[A-Za-z0-9-]{1,64}$/;
/** What an HTTP header value may hold: tab, visible ASCII and space, and Latin-1 (no CR, LF, NUL). */
const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/;
const reservedNames = new Set(['host', 'content-type', 'content-length']);

/**
 * Reads a request's `webhook` (a URL, or `{url, headers?}`): the normalised target, or the
 * refusal — `invalid_webhook` for its shape, `webhook_secret_missing` when no secret signs
 * deliveries, `webhook_host_not_allowed` (naming the host) when the host rule refuses it.
 * @example
 * const webhook = await parseWebhook('https://hooks.example.com/yeoul', { secret });
 * if ('code' in webhook) return reply400(webhook);
 */
export async function parseWebhook(
  value: unknown,
  settings: WebhookSettings,
): Promise<WebhookTarget | WebhookRefusal> {
  const shape = webhookShape(value);
  if ('code' in shape) return shape;
  if (settings.secret === undefined || settings.secret === '') {
    return {
      code: 'webhook_secret_missing',
      message:
        'webhooks need YEOUL_WEBHOOK_SECRET, the key that signs each delivery; it is not set',
    };
  }
  const check = await checkWebhookHost(new URL(shape.url), settings, { connect: false });
  if (!check.allowed) return { code: 'webhook_host_not_allowed', message: check.message };
  return shape;
}

/** The URL and header rules alone (no secret, no host rule). */
export function webhookShape(value: unknown): WebhookTarget | WebhookRefusal {
  if (typeof value === 'string') return targetOf(value, {});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid('webhook must be a URL or an object {url, headers?}');
  }
  const { url, headers, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    return invalid(
      `webhook has unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; use url and headers`,
    );
  }
  if (typeof url !== 'string') return invalid('webhook.url must be a string');
  if (headers === undefined) return targetOf(url, {});
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return invalid('webhook.headers must be an object of header names to string values');
  }
  return targetOf(url, headers as Record<string, unknown>);
}

function targetOf(text: string, headers: Record<string, unknown>): WebhookTarget | WebhookRefusal {
  if (text.length > maxUrlLength)
    return invalid(`webhook url is longer than ${maxUrlLength} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('webhook url is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalid(`webhook url must be http: or https:, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    return invalid('webhook url must not carry a user name or password');
  }
  const entries = Object.entries(headers);
  if (entries.length > maxHeaders)
    return invalid(`webhook.headers has more than ${maxHeaders} headers`);
  const kept: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, value] of entries) {
    const problem = headerProblem(name, value, kept);
    if (problem !== undefined) problems.push(`"${name}" ${problem}`);
    else kept[name.toLowerCase()] = value as string;
  }
  if (problems.length > 0) return invalid(`webhook.headers: ${problems.join('; ')}`);
  return { url: url.href, headers: kept };
}

/** What is wrong with one of the webhook's headers, or undefined when it may be sent. */
function headerProblem(
  name: string,
  value: unknown,
  kept: Readonly<Record<string, string>>,
): string | undefined {
  const lower = name.toLowerCase();
  if (!headerName.test(name)) return 'is not a header name of 1–64 letters, digits and -';
  if (reservedNames.has(lower) || lower.startsWith('x-yeoul-')) return 'is set by Yeoul itself';
  if (lower in kept) return 'is given twice';
  if (typeof value !== 'string') return 'must have a string value';
  if (value.length > maxValueLength) return `is longer than ${maxValueLength} characters`;
  if (!headerValue.test(value)) {
    return 'has a character a header cannot carry (a control character, or past U+00FF)';
  }
  return undefined;
}

function invalid(message: string): WebhookRefusal {
  return { code: 'invalid_webhook', message };
}
