import {
  type DigitRuns,
  isSeparator,
  isWholeNumber,
  runLength,
  type Span,
  separatorAfter,
  separators,
} from './digit-runs.ts';

const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];

/** The check digit of a 주민등록번호's first 12 digits: (11 − Σ wᵢdᵢ mod 11) mod 10. */
export function rrnCheckDigit(first12: string): number {
  let sum = 0;
  for (let index = 0; index < 12; index += 1) {
    sum += (first12.charCodeAt(index) - 48) * (weights[index] as number);
  }
  return (11 - (sum % 11)) % 10;
}

/** The century of a gender digit (1–2 and 5–6: 1900s, 3–4 and 7–8: 2000s), or 0 for none. */
function centuryOf(gender: number): number {
  if (gender === 1 || gender === 2 || gender === 5 || gender === 6) return 1900;
  if (gender === 3 || gender === 4 || gender === 7 || gender === 8) return 2000;
  return 0;
}

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether a year, month and day are a real date of the Gregorian calendar. */
function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const last = month === 2 && leap ? 29 : (daysInMonth[month - 1] as number);
  return day <= last;
}

/**
 * Whether 13 digits are a 주민등록번호: a real birth date, a gender digit 1–4 and a valid check
 * digit; without `checksum`, any check digit and gender digits 5–8 (외국인등록번호) too.
 * @example
 * isRrn('9001011234568', true); // true: 900101, gender 1, check digit 8
 */
export function isRrn(digits: string, checksum: boolean): boolean {
  if (digits.length !== 13) return false;
  const gender = digits.charCodeAt(6) - 48;
  if (checksum && (gender < 1 || gender > 4)) return false;
  const century = centuryOf(gender);
  if (century === 0) return false;
  const year = century + Number(digits.slice(0, 2));
  if (!isRealDate(year, Number(digits.slice(2, 4)), Number(digits.slice(4, 6)))) return false;
  return !checksum || rrnCheckDigit(digits) === digits.charCodeAt(12) - 48;
}

/** 주민등록번호s: `YYMMDD-GNNNNNC`, the hyphen also a space or absent. */
export function findRrns(runs: DigitRuns, checksum: boolean, found: Span[]): void {
  const { text, starts, ends } = runs;
  for (let index = 0; index < starts.length; index += 1) {
    const length = runLength(runs, index);
    if (length === 13) {
      if (
        isWholeNumber(runs, index, index) &&
        isRrn(text.slice(starts[index], ends[index]), checksum)
      )
        found.push({ start: starts[index] as number, end: ends[index] as number });
    } else if (length === 6 && runLength(runs, index + 1) === 7) {
      const separator = separatorAfter(runs, index);
      if (separator === separators.dot || !isSeparator(separator, 'space-hyphen')) continue;
      const digits =
        text.slice(starts[index], ends[index]) + text.slice(starts[index + 1], ends[index + 1]);
      if (isWholeNumber(runs, index, index + 1) && isRrn(digits, checksum))
        found.push({ start: starts[index] as number, end: ends[index + 1] as number });
    }
  }
}
