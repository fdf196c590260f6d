import {
  type DigitRuns,
  isWholeNumber,
  runLength,
  type Span,
  separatorAfter,
  separators,
} from './digit-runs.ts';

/** Whether run `index` is an IPv4 part: 0–255 without a leading zero. */
function isPart(runs: DigitRuns, index: number): boolean {
  const length = runLength(runs, index);
  if (!(length >= 1 && length <= 3)) return false;
  const digits = runs.text.slice(runs.starts[index], runs.ends[index]);
  if (length > 1 && digits.charCodeAt(0) === 48) return false;
  return Number(digits) <= 255;
}

/** IPv4 addresses `a.b.c.d`, never a part of a longer dotted number (`1.2.3.4.5`). */
export function findIps(runs: DigitRuns, found: Span[]): void {
  const { starts, ends } = runs;
  for (let index = 0; index + 3 < starts.length; index += 1) {
    let ok = true;
    for (let part = 0; part < 4 && ok; part += 1) {
      ok =
        isPart(runs, index + part) &&
        (part === 3 || separatorAfter(runs, index + part) === separators.dot);
    }
    if (ok && isWholeNumber(runs, index, index + 3)) {
      found.push({ start: starts[index] as number, end: ends[index + 3] as number });
      index += 3;
    }
  }
}
