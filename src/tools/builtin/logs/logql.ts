import { escapeRegExp, levelSpellings } from './match-log-query.ts';
import type { LogQuery } from './types.ts';

/**
 * The LogQL log query for `query` (time range and limit go in the request, not here):
 * - stream selector `{service=~"(?i)payment-service"}` on `serviceLabel` (a label matcher is
 *   anchored, so this is a case-insensitive equality), `{service=~".+"}` without a service;
 * - `contains` as a case-insensitive line filter over the whole line, `|~ "(?i)timeout"`;
 * - `level` and `status` read from JSON lines: `| json | level=~"(?i)error" | status>=500 |
 *   status<=599 | __error__=""` — lines that are not JSON, or whose status is no number, drop out.
 * @example lokiLogQuery({ service: 'payment-service', status: { from: 500, to: 500 }, limit: 20 }, 'service')
 * // '{service=~"(?i)payment-service"} | json | status=500 | __error__=""'
 */
export function lokiLogQuery(query: LogQuery, serviceLabel: string): string {
  const service = query.service?.trim();
  const selector = service
    ? `{${serviceLabel}=~${logqlString(`(?i)${escapeRegExp(service)}`)}}`
    : `{${serviceLabel}=~".+"}`;
  const stages: string[] = [];
  if (query.contains) stages.push(`|~ ${logqlString(`(?i)${escapeRegExp(query.contains)}`)}`);
  const fieldFilters: string[] = [];
  if (query.level) fieldFilters.push(`level=~${logqlString(levelPattern(query.level))}`);
  if (query.status) {
    const { from, to } = query.status;
    if (from === to) fieldFilters.push(`status=${from}`);
    else fieldFilters.push(`status>=${from}`, `status<=${to}`);
  }
  if (fieldFilters.length > 0) {
    stages.push('| json', ...fieldFilters.map((filter) => `| ${filter}`), '| __error__=""');
  }
  return [selector, ...stages].join(' ');
}

/**
 * The LogQL metric query counting the events of `logQuery` in the `rangeMs` before the
 * evaluation time. Loki's range is open at its start and closed at its end, so evaluated at
 * `end − 1 ns` it covers exactly the `[start, end)` a log query reads.
 */
export function lokiCountQuery(logQuery: string, rangeMs: number): string {
  return `sum(count_over_time(${logQuery} [${Math.max(1, Math.round(rangeMs))}ms]))`;
}

/** `warn` also matches `warning`, `error` also `err`, case-insensitively. */
function levelPattern(level: string): string {
  return `(?i)${levelSpellings(level).map(escapeRegExp).join('|')}`;
}

/** A LogQL double-quoted string literal. */
function logqlString(text: string): string {
  return JSON.stringify(text);
}
