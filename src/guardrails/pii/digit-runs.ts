/** A match's place in the normalised text: `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** The maximal runs of ASCII digits of a text, in order, with the text they are in. */
export interface DigitRuns {
  text: string;
  starts: number[];
  ends: number[];
}

const digitRun = /[0-9]+/g;

/**
 * Every maximal run of digits, found in one native pass. A number detector only matches whole
 * runs, so no number ever matches inside a longer run of digits.
 */
export function digitRuns(text: string): DigitRuns {
  const starts: number[] = [];
  const ends: number[] = [];
  digitRun.lastIndex = 0;
  for (let found = digitRun.exec(text); found !== null; found = digitRun.exec(text)) {
    starts.push(found.index);
    ends.push(found.index + found[0].length);
  }
  return { text, starts, ends };
}

/** Digits in run `index`. */
export function runLength(runs: DigitRuns, index: number): number {
  return (runs.ends[index] as number) - (runs.starts[index] as number);
}

/** The digits of run `index`. */
export function runDigits(runs: DigitRuns, index: number): string {
  return runs.text.slice(runs.starts[index], runs.ends[index]);
}

/** The one character between run `index` and the next (its code), or -1 when they are not one apart. */
export function separatorAfter(runs: DigitRuns, index: number): number {
  const end = runs.ends[index];
  const next = runs.starts[index + 1];
  if (end === undefined || next === undefined || next - end !== 1) return -1;
  return runs.text.charCodeAt(end);
}

const hyphen = 0x2d;
const dot = 0x2e;
const space = 0x20;

/** Whether run `index` and the next are joined by a hyphen or a dot (one number, then). */
function chained(runs: DigitRuns, index: number): boolean {
  const separator = separatorAfter(runs, index);
  return separator === hyphen || separator === dot;
}

/**
 * Whether runs `first`..`last` are a whole number: not a part of a longer number written with
 * hyphens or dots (`1.2.3.4` in `1.2.3.4.5`, `010-1234-5678` in `010-1234-5678-9`).
 */
export function isWholeNumber(runs: DigitRuns, first: number, last: number): boolean {
  return !(first > 0 && chained(runs, first - 1)) && !chained(runs, last);
}

/** Whether `code` is one of the separators a test accepts. */
export function isSeparator(code: number, accepted: 'space-hyphen' | 'space-hyphen-dot'): boolean {
  return code === space || code === hyphen || (accepted === 'space-hyphen-dot' && code === dot);
}

/** Whether run `index` and the next are joined by one of the accepted separators. */
export function joined(
  runs: DigitRuns,
  index: number,
  accepted: 'space-hyphen' | 'space-hyphen-dot',
): boolean {
  return isSeparator(separatorAfter(runs, index), accepted);
}

/** The codes of the separators. */
export const separators = { hyphen, dot, space } as const;
