/**
 * Reading numbers out of text for the grounding check: which digits are quantities, and
 * which are only parts of references — timestamps, clock times, dates, ids, versions,
 * addresses, ports, paths, list markers, citations — that no count should be compared with.
 */

/** Numbers as written ("56,088", "56088", "3.5", "4건"), normalised for comparison. */
export function numbersIn(text: string): string[] {
  // Digits glued to Latin letters ("e3", "v2", "S3", "5000ms") are names or units, not
  // quantities; Korean glues particles and counters to numbers ("총17건"), which stay.
  return (
    text.match(
      /(?<![\p{Script=Latin}\p{N}.])\d(?:[\d,]*\d)?(?:\.\d+)?(?![\p{Script=Latin}\p{N}]|\.\d)/gu,
    ) ?? []
  )
    .map((number) => number.replace(/,(?=\d{3}(?:\D|$))/g, '').replace(/\.0+$/, ''))
    .filter((number) => /^\d+(?:\.\d+)?$/.test(number));
}

const months = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';

/** Patterns whose digits are references, not quantities, most specific first. */
const references: RegExp[] = [
  // ISO 8601 dates and timestamps: 2025-03-14, 2025-03-14T05:07:38.837Z, 2025-03-14 14:07 KST
  /\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g,
  // Clock times and ranges of them: 05:07, 14:03:22.5
  /(?<![\p{N}.])\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?![\p{N}])/gu,
  // Korean dates and times, and durations in time units: 2025년 3월 14일, 오후 2시 7분, 5초, 3시간
  /(?:\d{2,4}\s*년\s*)?\d{1,2}\s*월(?:\s*\d{1,2}\s*일)?/g,
  /(?:오전|오후)?\s*\d{1,2}\s*시(?!간)(?:\s*\d{1,2}\s*분)?(?:\s*\d{1,2}\s*초)?/g,
  /\d+(?:\.\d+)?\s*(?:시간|분|초|밀리초|일\s*전|주\s*전)/g,
  // English dates and durations: March 14, 14 Mar 2025, 5 minutes, 2 hours ago
  new RegExp(`\\b${months}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?`, 'gi'),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${months}(?:\\s+\\d{4})?`, 'gi'),
  /\b\d+(?:\.\d+)?\s+(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|days?|weeks?)\b/gi,
  // URLs and paths: https://…, /api/v1/orders/123
  /\bhttps?:\/\/\S+/gi,
  /(?<![\p{L}\p{N}])\/[\p{L}\p{N}_.~%-]*[\p{L}_][\p{L}\p{N}_.~%/-]*/gu,
  // IP addresses (with a port), then ports after a host or on their own: :8080
  /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g,
  /(?<=[\p{L}\s(]|^):\d{2,5}\b/gu,
  // Ids, versions, hashes: ORD-52116, req-01002, TX88114, v2.14.1, 7f9c (a letter, then a digit)
  /(?<![A-Za-z0-9_.#-])[A-Za-z0-9_.#-]*[A-Za-z][A-Za-z0-9_.#-]*\d[A-Za-z0-9_.#-]*/g,
  // HTTP status classes, citations and list markers: 5xx, [2], "1. " at a line start
  /\b[1-5]xx\b/gi,
  /\[\d+\]/g,
  /^\s*\d{1,2}[.)]\s/gm,
];

/** The text with every reference blanked out, so only quantities keep their digits. */
export function withoutReferences(text: string): string {
  let masked = text;
  for (const pattern of references) {
    masked = masked.replace(pattern, (match) => ' '.repeat(match.length));
  }
  return masked;
}

/** The quantities a text states, as numbers, once references are blanked out. */
export function quantitiesIn(text: string): number[] {
  return numbersIn(withoutReferences(text)).map(Number);
}

const englishUnits = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const englishTens = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];
const koreanUnits: Record<string, number> = {
  한: 1,
  하나: 1,
  두: 2,
  둘: 2,
  세: 3,
  셋: 3,
  석: 3,
  네: 4,
  넷: 4,
  넉: 4,
  다섯: 5,
  여섯: 6,
  일곱: 7,
  여덟: 8,
  아홉: 9,
};
const koreanTens: Record<string, number> = {
  열: 10,
  스물: 20,
  스무: 20,
  서른: 30,
  마흔: 40,
  쉰: 50,
  예순: 60,
  일흔: 70,
  여든: 80,
  아흔: 90,
};

/** A number written in digits ("1,234"), English words ("seventeen") or Korean native numerals ("열일곱"). */
export function numberOfWord(word: string): number | undefined {
  const text = word.trim().toLowerCase();
  if (/^\d[\d,]*(?:\.\d+)?$/.test(text)) return Number(text.replace(/,/g, ''));
  const english = /^([a-z]+)(?:[-\s]([a-z]+))?$/.exec(text);
  if (english) {
    const [, first = '', second] = english;
    const unit = englishUnits.indexOf(first);
    if (unit >= 0 && second === undefined) return unit;
    const tens = englishTens.indexOf(first);
    if (tens >= 2) {
      if (second === undefined) return tens * 10;
      const rest = englishUnits.indexOf(second);
      if (rest >= 1 && rest <= 9) return tens * 10 + rest;
    }
    return undefined;
  }
  const korean =
    /^(열|스물|스무|서른|마흔|쉰|예순|일흔|여든|아흔)?(한|하나|두|둘|세|셋|석|네|넷|넉|다섯|여섯|일곱|여덟|아홉)?$/.exec(
      text,
    );
  if (korean && (korean[1] || korean[2])) {
    return (koreanTens[korean[1] ?? ''] ?? 0) + (koreanUnits[korean[2] ?? ''] ?? 0);
  }
  return undefined;
}

/** Digits as numbers are written ("17", "1,234", "3.5"), for building patterns. */
export const digitsPattern = '\\d[\\d,]*(?:\\.\\d+)?';

/** Numbers in words that `numberOfWord` reads ("seventeen", "twenty-one", "열일곱", "세"). */
export const wordNumberPattern = [
  `(?:${englishTens.slice(2).join('|')})(?:-(?:${englishUnits.slice(1, 10).join('|')}))?`,
  englishUnits.join('|'),
  '(?:열|스물|스무|서른|마흔|쉰|예순|일흔|여든|아흔)(?:하나|한|두|둘|세|셋|네|넷|다섯|여섯|일곱|여덟|아홉)?',
  '다섯|여섯|일곱|여덟|아홉|하나|한|두|둘|세|셋|석|네|넷|넉',
].join('|');

/** Any number `numberOfWord` reads. */
export const numberPattern = `${digitsPattern}|${wordNumberPattern}`;
