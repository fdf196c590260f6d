import type { ParsedLogLine } from './parse-log-line.ts';
import type { LogQuery, StatusRange } from './types.ts';

/** Tests one read line against a query. */
export type LogLineMatcher = (line: ParsedLogLine) => boolean;

const levelAliases: Record<string, string> = { warning: 'warn', err: 'error' };
/** Characters that continue a term: `payment-service` is one term, `status=500` is two. */
const termCharacter = '[\\p{L}\\p{N}_-]';

/** A level in one spelling: lower case, `warning` → `warn`, `err` → `error`. */
export function normaliseLevel(level: string): string {
  const lower = level.trim().toLowerCase();
  return levelAliases[lower] ?? lower;
}

/**
 * Every spelling of a level, its normal one first: `warn` also `warning`, `error` also `err`.
 * @example levelSpellings('WARNING') // ['warn', 'warning']
 */
export function levelSpellings(level: string): string[] {
  const canonical = normaliseLevel(level);
  const aliases = Object.entries(levelAliases)
    .filter(([, spelling]) => spelling === canonical)
    .map(([alias]) => alias);
  return [canonical, ...aliases];
}

/**
 * The matching rules of `query_logs`, compiled once per query. Every given field must match:
 * - JSON lines: `service` equals, case-insensitively; `level` equals, case-insensitively
 *   (`warning` = `warn`); `status` is a number (or numeric string) in the range; `contains`
 *   is a case-insensitive substring of the message.
 * - plain-text lines (no fields): `service`, `level` and `status` are found as whole terms in
 *   the line after its leading timestamp (case-insensitive; a class such as 5xx matches any
 *   three-digit term 500–599); `contains` is a case-insensitive substring of the whole line.
 * - `since` (inclusive) and `until` (exclusive) need a readable time: a line without one is
 *   left out whenever either is given.
 */
export function compileLogQuery(query: LogQuery): LogLineMatcher {
  const service = query.service?.trim().toLowerCase();
  const level = query.level === undefined ? undefined : normaliseLevel(query.level);
  const contains = query.contains?.toLowerCase();
  const sinceMs = query.since?.getTime();
  const untilMs = query.until?.getTime();
  const textTests: RegExp[] = [];
  if (service) textTests.push(termPattern(escapeRegExp(service)));
  if (level) textTests.push(termPattern(levelSpellings(level).map(escapeRegExp).join('|')));
  if (query.status) textTests.push(termPattern(statusPattern(query.status)));

  return (line) => {
    if (sinceMs !== undefined || untilMs !== undefined) {
      if (line.timeMs === undefined) return false;
      if (sinceMs !== undefined && line.timeMs < sinceMs) return false;
      if (untilMs !== undefined && line.timeMs >= untilMs) return false;
    }
    const { event } = line;
    if (line.kind === 'text') {
      if (contains && !event.message.toLowerCase().includes(contains)) return false;
      const text = line.lowerText ?? event.message.toLowerCase();
      return textTests.every((pattern) => pattern.test(text));
    }
    if (service && event.service?.toLowerCase() !== service) return false;
    if (level && (event.level === undefined || normaliseLevel(event.level) !== level)) {
      return false;
    }
    if (query.status) {
      const status = event.status;
      if (status === undefined || status < query.status.from || status > query.status.to) {
        return false;
      }
    }
    if (contains && !event.message.toLowerCase().includes(contains)) return false;
    return true;
  };
}

function termPattern(alternatives: string): RegExp {
  return new RegExp(`(?<!${termCharacter})(?:${alternatives})(?!${termCharacter})`, 'u');
}

/** `500` → `500`; 500–599 → `5\d\d`; any other range → its codes listed. */
function statusPattern(status: StatusRange): string {
  if (status.from === status.to) return String(status.from);
  if (status.from % 100 === 0 && status.to === status.from + 99) {
    return `${status.from / 100}\\d\\d`;
  }
  const codes: number[] = [];
  for (let code = status.from; code <= status.to; code += 1) codes.push(code);
  return codes.join('|');
}

/** `text` with every regular-expression operator escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
