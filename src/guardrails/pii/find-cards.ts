import { type DigitRuns, isWholeNumber, joined, runLength, type Span } from './digit-runs.ts';

/** Whether a string of digits passes the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether a card number could be one: 13–19 digits, Luhn-valid, not all one digit. */
export function isCardNumber(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  let same = true;
  for (let index = 1; index < digits.length && same; index += 1) same = digits[index] === digits[0];
  return !same && luhnValid(digits);
}

/** The digits of runs `first`..`last`, separators left out. */
function digitsOf(runs: DigitRuns, first: number, last: number): string {
  let digits = '';
  for (let index = first; index <= last; index += 1) {
    digits += runs.text.slice(runs.starts[index], runs.ends[index]);
  }
  return digits;
}

/**
 * Card numbers: 13–19 digits with a valid Luhn check digit, contiguous, in groups of 4 (the last
 * may be shorter) or grouped 4-6-5, groups joined by single spaces or hyphens.
 */
export function findCards(runs: DigitRuns, found: Span[]): void {
  const { starts, ends } = runs;
  const count = starts.length;
  for (let index = 0; index < count; index += 1) {
    const length = runLength(runs, index);
    if (length >= 13 && length <= 19) {
      if (isWholeNumber(runs, index, index) && isCardNumber(digitsOf(runs, index, index)))
        found.push({ start: starts[index] as number, end: ends[index] as number });
      continue;
    }
    if (length !== 4 || !joined(runs, index, 'space-hyphen')) continue;
    // Groups of four: the longest valid number wins; a group shorter than 4 ends it.
    let best = -1;
    let total = 4;
    for (let last = index + 1; last < count && joined(runs, last - 1, 'space-hyphen'); last += 1) {
      const group = runLength(runs, last);
      if (group > 4 || total + group > 19) break;
      total += group;
      if (
        total >= 13 &&
        isWholeNumber(runs, index, last) &&
        isCardNumber(digitsOf(runs, index, last))
      )
        best = last;
      if (group < 4) break;
    }
    if (best === -1 && runLength(runs, index + 1) === 6 && runLength(runs, index + 2) === 5) {
      if (joined(runs, index + 1, 'space-hyphen') && isWholeNumber(runs, index, index + 2))
        if (isCardNumber(digitsOf(runs, index, index + 2))) best = index + 2;
    }
    if (best !== -1) {
      found.push({ start: starts[index] as number, end: ends[best] as number });
      index = best;
    }
  }
}
