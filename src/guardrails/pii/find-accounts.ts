import {
  type DigitRuns,
  isWholeNumber,
  runLength,
  type Span,
  separatorAfter,
  separators,
} from './digit-runs.ts';

/** The words after which a number is a bank account (one must end within 15 characters before it). */
export const accountKeywords = [
  '계좌',
  '통장',
  '입금',
  '송금',
  '이체',
  '은행',
  '뱅크',
  '예금주',
  'account',
];

const keywordReach = 15;
const longestKeyword = Math.max(...accountKeywords.map((keyword) => keyword.length));

/** Whether an account keyword ends within 15 characters before `start`, on the same line. */
export function hasAccountKeyword(text: string, start: number): boolean {
  const from = Math.max(0, start - keywordReach - longestKeyword);
  let window = text.slice(from, start);
  const newline = Math.max(window.lastIndexOf('\n'), window.lastIndexOf('\r'));
  if (newline !== -1) window = window.slice(newline + 1);
  const lower = window.toLowerCase();
  for (const keyword of accountKeywords) {
    const at = lower.lastIndexOf(keyword);
    if (at !== -1 && lower.length - (at + keyword.length) <= keywordReach) return true;
  }
  return false;
}

/**
 * Bank accounts: 10–14 digits, contiguous or in 2–4 hyphen-joined groups, only right after an
 * account keyword (see {@link hasAccountKeyword}).
 */
export function findAccounts(runs: DigitRuns, found: Span[]): void {
  const { text, starts, ends } = runs;
  const count = starts.length;
  for (let index = 0; index < count; index += 1) {
    let last = index;
    let total = runLength(runs, index);
    while (last + 1 < count && separatorAfter(runs, last) === separators.hyphen) {
      last += 1;
      total += runLength(runs, last);
    }
    const groups = last - index + 1;
    if (groups <= 4 && total >= 10 && total <= 14 && isWholeNumber(runs, index, last)) {
      if (hasAccountKeyword(text, starts[index] as number))
        found.push({ start: starts[index] as number, end: ends[last] as number });
    }
    index = last;
  }
}
