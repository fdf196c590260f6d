import { normaliseLevel } from './match-log-query.ts';
import type { LogQuery } from './types.ts';

/** Datadog's name for the HTTP status attribute of its standard attributes. */
export const datadogStatusAttribute = '@http.status_code';

/**
 * The Datadog log search query for `query` (time goes in the request's filter, not here):
 * `service:payment-service status:error @http.status_code:[500 TO 599] "timed out"` — the
 * service tag lower-cased (Datadog lower-cases tags), the level as Datadog's `status`
 * (`warning` → `warn`), the HTTP status from the standard attribute `@http.status_code`, and
 * `contains` as a full-text phrase (Datadog matches whole words, case-insensitively); `*`
 * when nothing is filtered.
 * @example datadogSearchQuery({ service: 'Payment-Service', level: 'ERROR', limit: 20 }) // 'service:payment-service status:error'
 */
export function datadogSearchQuery(query: LogQuery): string {
  const terms: string[] = [];
  const service = query.service?.trim().toLowerCase();
  if (service) terms.push(`service:${value(service)}`);
  if (query.level) terms.push(`status:${value(normaliseLevel(query.level))}`);
  if (query.status) {
    const { from, to } = query.status;
    terms.push(`${datadogStatusAttribute}:${from === to ? from : `[${from} TO ${to}]`}`);
  }
  if (query.contains) terms.push(phrase(query.contains));
  return terms.length === 0 ? '*' : terms.join(' ');
}

/** A tag or attribute value, quoted when it holds anything but word characters, `-`, `.` or `/`. */
function value(text: string): string {
  return /^[\p{L}\p{N}_./-]+$/u.test(text) ? text : phrase(text);
}

function phrase(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}
