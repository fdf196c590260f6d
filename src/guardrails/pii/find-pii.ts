import { type MappedText, nfkcWithOffsets, originalRange } from '../text/mapped-text.ts';
import { digitRuns, type Span } from './digit-runs.ts';
import { findAccounts } from './find-accounts.ts';
import { findCards } from './find-cards.ts';
import { findEmails } from './find-emails.ts';
import { findIps } from './find-ips.ts';
import { findPhones } from './find-phones.ts';
import { findRrns } from './find-rrns.ts';

/** The kinds `pii` finds. */
export const piiKinds = ['rrn', 'card', 'phone', 'email', 'account', 'ip'] as const;

/** One kind `pii` finds. */
export type PiiKind = (typeof piiKinds)[number];

/** One thing `pii` found: its kind, its place in the original text and its normalised value. */
export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
  value: string;
}

/** Which kinds to look for (the others are off) and how strictly to check 주민등록번호s. */
export interface PiiScan {
  kinds: ReadonlySet<PiiKind>;
  rrnChecksum: boolean;
}

/**
 * The order kinds claim text in: an address claims its digits before a phone number does, and
 * an account never counts a number another kind matched.
 */
const claimOrder: readonly PiiKind[] = ['email', 'rrn', 'card', 'phone', 'account', 'ip'];

/**
 * Whether the text may hold a match at all: a digit or an `@`, or a character outside the plain
 * ranges (ASCII, Latin letters, Hangul, CJK) that NFKC could turn into one (`²`, `①`, `０`).
 */
const mayMatch =
  /[0-9@\uFF10-\uFF19\uFF20]|[^\t\n\r\u0020-\u007E\u00C0-\u024F\u1100-\u11FF\u3000-\u303F\u3130-\u318F\uAC00-\uD7A3\u4E00-\u9FFF]/;

/**
 * Everything `pii` finds in a text, on its NFKC form, each match with its original range, in
 * order and never overlapping. Every detector is linear in the text's length.
 * @example
 * findPii('메일 hong@example.com으로', scan).map((match) => match.kind); // ['email']
 */
export function findPii(text: string, scan: PiiScan): PiiMatch[] {
  if (!mayMatch.test(text)) return [];
  const mapped = nfkcWithOffsets(text);
  const normal = mapped.text;
  const runs = digitRuns(normal);
  if (runs.starts.length === 0 && normal.indexOf('@') === -1) return [];
  const claimed: Array<Span & { kind: PiiKind }> = [];
  let taken: Uint8Array | undefined;
  for (const kind of claimOrder) {
    if (!scan.kinds.has(kind)) continue;
    const spans: Span[] = [];
    if (kind === 'email') findEmails(normal, spans);
    else if (kind === 'rrn') findRrns(runs, scan.rrnChecksum, spans);
    else if (kind === 'card') findCards(runs, spans);
    else if (kind === 'phone') findPhones(runs, spans);
    else if (kind === 'account') findAccounts(runs, spans);
    else findIps(runs, spans);
    for (const span of spans) {
      if (taken !== undefined && overlaps(taken, span)) continue;
      taken ??= new Uint8Array(normal.length);
      taken.fill(1, span.start, span.end);
      claimed.push({ ...span, kind });
    }
  }
  claimed.sort((a, b) => a.start - b.start);
  return claimed.map((span) => toMatch(mapped, span));
}

function overlaps(taken: Uint8Array, span: Span): boolean {
  for (let at = span.start; at < span.end; at += 1) if (taken[at] === 1) return true;
  return false;
}

function toMatch(mapped: MappedText, span: Span & { kind: PiiKind }): PiiMatch {
  const [start, end] = originalRange(mapped, span.start, span.end);
  return { kind: span.kind, start, end, value: mapped.text.slice(span.start, span.end) };
}
