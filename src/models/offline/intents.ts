import { findLogQuery, type LogQueryIntent } from './log-intent.ts';

/** What the offline model understood a user message to ask for. */
export type ToolIntent =
  | { tool: 'calculator'; args: { expression: string } }
  | { tool: 'get_current_datetime'; args: { timeZone?: string } }
  | { tool: 'get_weather'; args: { location: string } }
  | { tool: 'search_wikipedia'; args: { query: string } }
  | { tool: 'query_logs'; args: LogQueryIntent };

/**
 * A date or time question: "몇 시야", "오늘 며칠이야", "무슨 요일", "what time is it" — but
 * not "며칠" alone, which asks how many days ("연차는 며칠이야?"), nor "몇 시간", a duration.
 */
export const dateQuestion =
  /몇\s*시(?!\s*간)|지금\s*시간|현재\s*시간|(?:오늘|내일|어제|모레|지금|현재)\s*(?:은|는|이|가)?\s*(?:몇\s*월\s*)?(?:며칠|날짜|무슨\s*요일|요일)|몇\s*월\s*며칠|무슨\s*요일|날짜\s*(?:좀|를|가|는)?\s*(?:알려|뭐|언제)|what time|current time|today's date|what day is|what date|what's the date/i;

/** "abc 계산해줘", "1+2를 계산해 주세요": what comes before the request to calculate. */
const koreanCalculation =
  /^(.*?\S)\s*(?:을|를)?\s*계산(?:해\s*(?:줘|주세요|줄래|봐|보세요)|하면|해)?\s*[?？!.]*$/;
/** "계산해줘: abc", "calculate abc", "compute 2^10": what comes after. */
const calculationAfter = /(?:계산해\s*줘|계산|calculate|compute|evaluate)\s*[:：]?\s*(.+)$/i;

const koreanOperators: Array<[RegExp, string]> = [
  [/곱하기/g, '*'],
  [/나누기/g, '/'],
  [/더하기/g, '+'],
  [/빼기/g, '-'],
  [/[×xX](?=\s*\d)/g, '*'],
  [/÷/g, '/'],
];

/** A whole message that is a formula: `sum(ones(3,000,3,000))`, `2^10 / 4`. */
const formulaOnly = /^[a-z\d\s.,+\-*/^%()!]+$/i;

const number = String.raw`\d[\d,]*(?:\.\d+)?`;
const percentOf = new RegExp(`(${number})\\s*(?:%|percent)\\s+of\\s+(${number})`, 'i');
const koreanPercent = new RegExp(`(${number})\\s*의\\s*(${number})\\s*(?:%|퍼센트|프로)`);

/**
 * A percentage of an amount, as the calculator's expression: "What is 15% of 2400?" and
 * "2400의 15%는?" → `2400 * 15 / 100`.
 */
export function findPercentage(text: string): string | undefined {
  const english = percentOf.exec(text);
  const korean = english ? undefined : koreanPercent.exec(text);
  const [percent, amount] = english
    ? [english[1], english[2]]
    : korean
      ? [korean[2], korean[1]]
      : [];
  if (percent === undefined || amount === undefined) return undefined;
  const plain = (value: string) => value.replace(/,/g, '');
  return `${plain(amount)} * ${plain(percent)} / 100`;
}

/** The arithmetic expression in a message, if it has one (`123 * 456`, `3 곱하기 4`). */
export function findExpression(text: string): string | undefined {
  const bare = text
    .replace(/\s*(?:을|를)?\s*계산(?:해\s*(?:줘|주세요|줄래|봐)|하면|해)?\s*[?？!.]*$/, '')
    .replace(/[?？=]+\s*$/, '')
    .trim();
  // Letters only as function names ("sum(") or constants, never words ("What is …").
  const lettersLeft = bare.replace(/[a-z]+\(/gi, '(').replace(/\b(?:pi|e)\b/gi, '');
  if (
    formulaOnly.test(bare) &&
    !/[a-z]/i.test(lettersLeft) &&
    /\d/.test(bare) &&
    /[a-z]+\(|\d\s*[-+*/^%]\s*[\d(]/i.test(bare)
  ) {
    return bare.replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/\s+/g, ' ');
  }
  let normalized = text;
  for (const [pattern, operator] of koreanOperators)
    normalized = normalized.replace(pattern, ` ${operator} `);
  normalized = normalized.replace(/(\d),(?=\d{3}\b)/g, '$1');
  const candidates =
    normalized.match(/(?:sqrt|abs|log|sin|cos|tan)?[\d.(][\d\s.+\-*/^%()a-z]*[\d)]/g) ?? [];
  const valid = candidates
    .map((candidate) => candidate.replace(/\s+/g, ' ').trim())
    .filter((candidate) => /\d\s*[-+*/^%]\s*[\d(]|(?:sqrt|abs|log|sin|cos|tan)\(/.test(candidate))
    .filter(
      (candidate) =>
        !/[a-z]{2,}(?!\()/.test(candidate.replace(/(?:sqrt|abs|log|sin|cos|tan)\(/g, '(')),
    );
  return valid.sort((a, b) => b.length - a.length)[0];
}

const cityZones: Array<[RegExp, string]> = [
  [/뉴욕|new york/i, 'America/New_York'],
  [/런던|london/i, 'Europe/London'],
  [/도쿄|tokyo/i, 'Asia/Tokyo'],
  [/파리|paris/i, 'Europe/Paris'],
  [/서울|seoul/i, 'Asia/Seoul'],
];

const particles = /(?:에서의|에서|의|은|는|이|가|을|를|에|도)$/;

/** The tool a user message asks for, among the tools offered, if any. */
export function findToolIntent(text: string, toolNames: Set<string>): ToolIntent | undefined {
  const lower = text.toLowerCase();
  if (toolNames.has('calculator')) {
    const expression = findPercentage(text) ?? findExpression(text);
    if (expression !== undefined) return { tool: 'calculator', args: { expression } };
    const asked = askedExpression(text);
    if (asked) return { tool: 'calculator', args: { expression: asked } };
  }
  if (toolNames.has('query_logs')) {
    const query = findLogQuery(text);
    if (query) return { tool: 'query_logs', args: query };
  }
  if (toolNames.has('get_weather') && /날씨|기온|weather|forecast/i.test(text)) {
    return { tool: 'get_weather', args: { location: findPlace(text) } };
  }
  if (toolNames.has('get_current_datetime') && dateQuestion.test(lower)) {
    const zone = cityZones.find(([pattern]) => pattern.test(text))?.[1];
    return { tool: 'get_current_datetime', args: zone ? { timeZone: zone } : {} };
  }
  if (
    toolNames.has('search_wikipedia') &&
    /검색|누구|search|what is|what's|who is|who was/i.test(text)
  ) {
    return { tool: 'search_wikipedia', args: { query: searchQuery(text) } };
  }
  return undefined;
}

/**
 * What a message asks to calculate when it names no arithmetic: "abc 계산해줘" → "abc",
 * "calculate abc" → "abc". The calculator then says what is wrong with it.
 */
function askedExpression(text: string): string | undefined {
  const before = koreanCalculation.exec(text.trim())?.[1]?.trim();
  if (before && !/^(?:이거|그거|이것|좀|다시)$/.test(before)) return before;
  const after = calculationAfter
    .exec(text)?.[1]
    ?.replace(/[?？!.]+$/, '')
    .trim();
  return after && !/^(?:해\s*줘|해|줘)$/.test(after) ? after : undefined;
}

function findPlace(text: string): string {
  const english = text.match(
    /(?:in|for|at)\s+([A-Z][\w .'-]*?)(?:\s+(?:today|tomorrow|now)|[?.!,]|$)/,
  );
  if (english?.[1]) return english[1].trim();
  const korean = text.match(/([\p{L}]+?)(?:의|에서의|에서)?\s*(?:날씨|기온)/u);
  if (korean?.[1] && !/오늘|내일|지금|현재/.test(korean[1]))
    return korean[1].replace(particles, '');
  const before = text
    .split(/날씨|기온/)[0]
    ?.trim()
    .split(/\s+/)
    .filter((word) => !/오늘|내일|지금|현재/.test(word));
  const word = before?.at(-1)?.replace(particles, '');
  return word && word.length > 0 ? word : isHangul(text) ? '서울' : 'Seoul';
}

function searchQuery(text: string): string {
  const cleaned = text
    .replace(
      /위키(?:피디아)?(?:에서)?|wikipedia|검색해\s*줘|검색해|검색|찾아\s*줘|알려\s*줘|누구(?:야|예요|인가요|니)?|search(?: for)?|what is|what's|who is|who was|please|tell me about/gi,
      ' ',
    )
    .replace(/[?？!.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/(?:에\s*대해|에\s*대한|이란|란|가|이|은|는|을|를)$/, ''))
    .filter((word) => word.length > 0)
    .join(' ');
  return cleaned.length > 0 ? cleaned : text.trim();
}

function isHangul(text: string): boolean {
  return /[\uac00-\ud7a3]/.test(text);
}
