import {
  digitsPattern,
  numberOfWord,
  numberPattern,
  withoutReferences,
  wordNumberPattern,
} from './read-numbers.ts';

/** A count an answer states ("17건", "17 events", "seventeen errors", "가장 최근 3건"). */
export interface StatedCount {
  value: number;
  /** Where it is in the answer, so the rest of the answer can be read without it. */
  start: number;
  end: number;
  /** A count of what the answer shows ("the newest 3", "최근 3건"), not of what matched. */
  shown: boolean;
}

const koreanCounter = '건|개(?!월)|회(?![사의원])|번(?![째호지])|명|차례|줄';
const englishNoun =
  'events?|errors?|logs?|entries|lines|times|occurrences|hits|matches|failures|requests|exceptions|timeouts|records|results|incidents';
/** Words between a number and its noun that make it a measure, not a count ("5000 ms timeouts"). */
const unitWord = '(?:ms|s|secs?|seconds?|minutes?|kb|mb|gb|won|krw|usd|percent)\\b';

// Digits may follow Hangul ("총17건"); a number word must start a word ("세 건", not "두세 건").
const korean = new RegExp(
  `(?:(?<![\\p{Script=Latin}\\p{N}.,])(${digitsPattern})|(?<![\\p{L}\\p{N}])(${wordNumberPattern}))\\s*(?:${koreanCounter})(?!\\s*도\\s*없)`,
  'giu',
);
const english = new RegExp(
  `\\b(${numberPattern})\\s+((?:(?!${unitWord})(?:[a-z][\\w-]*|\\d{3})\\s+){0,2}?)(${englishNoun})\\b`,
  'gi',
);
const totalWords = new RegExp(
  `\\b(?:count|total)(?:\\s+(?:is|was|of))?\\s*[:=]?\\s+(${numberPattern})\\b`,
  'gi',
);
const shownBefore =
  /(?:최근|최신|상위|처음|마지막|앞의|newest|latest|most recent|last|first|top|recent)\s*$/i;
const shownEnglish = new RegExp(
  `\\b(?:newest|latest|most recent|last|first|top)\\s+(${numberPattern})\\b(?!\\s*(?:${unitWord}))`,
  'gi',
);
/** Nouns after which a three-digit number is an HTTP status, not a count ("500 errors"). */
const statusNouns = /^(?:errors?|requests?|responses?|failures?)$/i;

/**
 * The counts an answer states, read once references (times, ids, paths…) are blanked out.
 * A three-digit number that is one of `statuses` before "errors" is the status ("500 errors").
 */
export function statedCounts(answer: string, statuses: ReadonlySet<number>): StatedCount[] {
  const text = withoutReferences(answer);
  const found: StatedCount[] = [];
  const add = (match: RegExpExecArray, numberText: string, shown?: boolean) => {
    const value = numberOfWord(numberText);
    if (value === undefined) return;
    const start = match.index + match[0].indexOf(numberText);
    if (found.some((count) => start < count.end && count.start < start + numberText.length)) return;
    found.push({
      value,
      start,
      end: start + numberText.length,
      shown: shown ?? shownBefore.test(text.slice(Math.max(0, start - 12), start)),
    });
  };
  for (const match of text.matchAll(shownEnglish)) add(match, match[1] as string, true);
  for (const match of text.matchAll(korean)) add(match, (match[1] ?? match[2]) as string);
  for (const match of text.matchAll(english)) {
    const [, number = '', between = '', noun = ''] = match;
    const asStatus =
      between.trim() === '' &&
      /^\d{3}$/.test(number) &&
      statuses.has(Number(number)) &&
      statusNouns.test(noun);
    if (!asStatus) add(match, number);
  }
  for (const match of text.matchAll(totalWords)) add(match, match[1] as string);
  return found.sort((a, b) => a.start - b.start);
}

const denials = [
  /(?:한|단\s*한|하나|1)\s*(?:건|개|번)도\s*(?:없|발견되지|나타나지|확인되지|검색되지)/,
  /(?:에러|오류|로그|이벤트|결과|기록|장애|문제|항목)(?:가|이|는|은|도)?\s*(?:전혀\s*|하나도\s*|아무것도\s*)?(?:없습니다|없어요|없었습니다|없었어요|없음|없다|없네요|발견되지\s*않|확인되지\s*않|검색되지\s*않|나타나지\s*않)/,
  /찾지\s*못했|찾을\s*수\s*없/,
  /\bno\s+(?:\w+\s+){0,2}?(?:errors?|events?|logs?|log entries|entries|results|matches|failures|incidents|records)\b/i,
  /\b(?:found|there (?:are|were|is|was))\s+(?:no|none|nothing|zero)\b/i,
  /\b(?:did not|didn't|could not|couldn't)\s+find\s+any/i,
  /\b(?:none|nothing)\s+(?:was\s+|were\s+)?found\b/i,
];

/** True when the answer says the tools found nothing ("에러가 없습니다", "no errors were found"). */
export function deniesFindings(answer: string): boolean {
  return denials.some((pattern) => pattern.test(answer));
}
