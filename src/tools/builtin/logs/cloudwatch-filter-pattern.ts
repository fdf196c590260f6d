import { levelSpellings } from './match-log-query.ts';
import type { LogQuery } from './types.ts';

/** Characters CloudWatch allows in a filter-pattern regex (besides its operators, escaped). */
const regexSafe = /^[A-Za-z0-9:_#=@/;,.-]+$/;
const regexOperators = /[.^$?[\]{}|\\*+]/g;

/**
 * The CloudWatch Logs filter pattern for `query`, a JSON pattern over structured (JSON) log
 * events; empty when nothing is filtered (time goes in the request, not here):
 * - `service` and `level` as case-insensitive regexes (`$.level = %^[Ee][Rr][Rr][Oo][Rr]$%`);
 *   CloudWatch allows two regexes per pattern, and a value with characters its regexes do not
 *   allow (spaces, non-ASCII) is compared exactly instead;
 * - `status` as numbers (`$.status = 500`, or `>= 500 && <= 599` for 5xx);
 * - `contains` as a wildcard on the message (`$.message = "*timed out*"`): CloudWatch compares it
 *   case-sensitively.
 * @example cloudWatchFilterPattern({ service: 'card-gateway', status: { from: 500, to: 500 }, limit: 20 })
 * // '{ $.service = %^[Cc][Aa][Rr][Dd]-[Gg][Aa][Tt][Ee][Ww][Aa][Yy]$% && $.status = 500 }'
 */
export function cloudWatchFilterPattern(query: LogQuery): string {
  const conditions: string[] = [];
  const service = query.service?.trim();
  if (service) conditions.push(`$.service = ${caseInsensitive([service])}`);
  if (query.level) conditions.push(`$.level = ${caseInsensitive(levelSpellings(query.level))}`);
  if (query.status) {
    const { from, to } = query.status;
    if (from === to) conditions.push(`$.status = ${from}`);
    else conditions.push(`$.status >= ${from} && $.status <= ${to}`);
  }
  if (query.contains) conditions.push(`$.message = ${quoted(`*${query.contains}*`)}`);
  return conditions.length === 0 ? '' : `{ ${conditions.join(' && ')} }`;
}

/** `%^[Ee][Rr][Rr][Oo][Rr]$|^[Ee][Rr][Rr]$%`, or the first spelling quoted when no regex can say it. */
function caseInsensitive(spellings: string[]): string {
  if (!spellings.every((spelling) => regexSafe.test(spelling))) return quoted(spellings[0] ?? '');
  const alternatives = spellings.map((spelling) => {
    const letters = spelling.replace(regexOperators, '\\$&').replace(/[A-Za-z]/g, (letter) => {
      return `[${letter.toUpperCase()}${letter.toLowerCase()}]`;
    });
    return `^${letters}$`;
  });
  return `%${alternatives.join('|')}%`;
}

/** A filter-pattern string literal. */
function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}
