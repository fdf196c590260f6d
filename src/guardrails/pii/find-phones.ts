import { type DigitRuns, isWholeNumber, joined, runLength, type Span } from './digit-runs.ts';

/**
 * The length of a Korean number's prefix: 3 for a mobile `01[016789]`, 2 for Seoul's `02`, 3 for
 * the other area codes (`03[1-3]`, `04[1-4]`, `05[1-5]`, `06[1-4]`) and `070`; 0 for anything
 * else (representative `15xx`/`16xx`/`18xx` numbers and `080` included).
 */
function prefixLength(digits: string): number {
  if (digits.charCodeAt(0) !== 48) return 0;
  const second = digits.charCodeAt(1) - 48;
  const third = digits.charCodeAt(2) - 48;
  if (second === 1) return third === 0 || third === 1 || third >= 6 ? 3 : 0;
  if (second === 2) return 2;
  if (second === 3) return third >= 1 && third <= 3 ? 3 : 0;
  if (second === 4) return third >= 1 && third <= 4 ? 3 : 0;
  if (second === 5) return third >= 1 && third <= 5 ? 3 : 0;
  if (second === 6) return third >= 1 && third <= 4 ? 3 : 0;
  if (second === 7) return third === 0 ? 3 : 0;
  return 0;
}

/**
 * Whether groups of digits (the national number, its leading 0 included) are a Korean phone
 * number: prefix, 3–4 digits, 4 digits, each group boundary at one of those places.
 */
export function isPhoneNumber(groups: readonly string[]): boolean {
  const digits = groups.join('');
  const prefix = prefixLength(digits);
  const rest = digits.length - prefix;
  if (prefix === 0 || (rest !== 7 && rest !== 8)) return false;
  const middleEnd = prefix + rest - 4;
  let cut = 0;
  for (let index = 0; index < groups.length - 1; index += 1) {
    cut += (groups[index] as string).length;
    if (cut !== prefix && cut !== middleEnd) return false;
  }
  return true;
}

/**
 * Korean phone numbers: mobile, landline and `070`, groups joined by a hyphen, a dot, a space or
 * nothing, and the `+82` form (the number without its leading 0).
 */
export function findPhones(runs: DigitRuns, found: Span[]): void {
  const { text, starts, ends } = runs;
  const count = starts.length;
  for (let index = 0; index < count; index += 1) {
    const start = starts[index] as number;
    const plus = start > 0 && text.charCodeAt(start - 1) === 0x2b;
    // A national number starts with 0, an international one with +82: most numbers do neither.
    if (!plus && text.charCodeAt(start) !== 0x30) continue;
    const first = text.slice(start, ends[index]);
    const international = plus && first.startsWith('82');
    let groups: string[];
    let next = index + 1;
    if (international && first.length === 2) {
      // `+82 10-2345-6789`: the national number starts in the next run.
      if (next >= count || !joined(runs, index, 'space-hyphen-dot')) continue;
      groups = [`0${text.slice(starts[next], ends[next])}`];
      next += 1;
    } else groups = [international ? `0${first.slice(2)}` : first];
    let last = next - 1;
    // Up to three groups; the longest that is a phone number wins.
    let best = isPhoneNumber(groups) ? last : -1;
    while (
      groups.length < 3 &&
      last + 1 < count &&
      joined(runs, last, 'space-hyphen-dot') &&
      runLength(runs, last + 1) <= 8
    ) {
      last += 1;
      groups.push(text.slice(starts[last], ends[last]));
      if (isPhoneNumber(groups)) best = last;
    }
    if (best === -1 || !isWholeNumber(runs, index, best)) continue;
    found.push({ start: international ? start - 1 : start, end: ends[best] as number });
    index = best;
  }
}
