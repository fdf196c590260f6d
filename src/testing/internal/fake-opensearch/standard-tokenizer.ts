/** A token as Lucene's StandardTokenizer emits it: text, UTF-16 offsets and type. */
export interface Token {
  term: string;
  start: number;
  end: number;
  type: TokenType;
}

/** StandardTokenizer's token types (those the fake produces). */
export type TokenType =
  | '<ALPHANUM>'
  | '<NUM>'
  | '<HANGUL>'
  | '<IDEOGRAPHIC>'
  | '<HIRAGANA>'
  | '<KATAKANA>'
  | '<EMOJI>'
  | '<DOUBLE>'
  | '<SINGLE>';

type WordBreak =
  | 'hangul'
  | 'letter'
  | 'numeric'
  | 'katakana'
  | 'extendNumLet'
  | 'midLetter'
  | 'midNum'
  | 'midNumLet'
  | 'han'
  | 'hiragana'
  | 'emoji'
  | 'other';

const han = /\p{Script=Han}/u;
const hiragana = /\p{Script=Hiragana}/u;
const katakana = /[\p{Script=Katakana}\u30fc\uff70]/u;
const hangul = /\p{Script=Hangul}/u;
const letter = /\p{L}/u;
const numeric = /\p{Nd}/u;
const extendNumLet = /\p{Pc}/u;
const extend = /\p{M}|\p{Cf}|\u200d|\uff9e|\uff9f/u;
const emoji = /\p{Extended_Pictographic}/u;
const midLetter = new Set([
  ':',
  '\u00b7',
  '\u0387',
  '\u05f4',
  '\u2027',
  '\ufe13',
  '\ufe55',
  '\uff1a',
]);
const midNumLet = new Set(['.', '\u2018', '\u2019', '\u2024', '\ufe52', '\uff07', '\uff0e', "'"]);
const midNum = new Set([
  ',',
  ';',
  '\u037e',
  '\u0589',
  '\u060c',
  '\u060d',
  '\u066c',
  '\u07f8',
  '\u2044',
  '\ufe10',
  '\ufe14',
  '\ufe50',
  '\ufe54',
  '\uff0c',
  '\uff1b',
]);

/** The Unicode word-break class (UAX #29) of a character, as far as the fake needs it. */
function classOf(character: string): WordBreak {
  if (han.test(character)) return 'han';
  if (hiragana.test(character)) return 'hiragana';
  if (katakana.test(character)) return 'katakana';
  if (hangul.test(character) && letter.test(character)) return 'hangul';
  if (letter.test(character)) return 'letter';
  if (numeric.test(character)) return 'numeric';
  if (extendNumLet.test(character)) return 'extendNumLet';
  if (midLetter.has(character)) return 'midLetter';
  if (midNumLet.has(character)) return 'midNumLet';
  if (midNum.has(character)) return 'midNum';
  if (emoji.test(character)) return 'emoji';
  return 'other';
}

const isLetter = (kind: WordBreak) => kind === 'letter' || kind === 'hangul';
const inWord = (kind: WordBreak) =>
  isLetter(kind) || kind === 'numeric' || kind === 'katakana' || kind === 'extendNumLet';

/** UAX #29 rules WB5, WB8–WB10, WB13, WB13a/b: may these two units stay in one word? */
function joins(left: WordBreak, right: WordBreak): boolean {
  if (left === 'extendNumLet' || right === 'extendNumLet') return true;
  if (left === 'katakana' || right === 'katakana') return left === right;
  return true;
}

/** WB6/7 (letter, MidLetter|MidNumLet, letter) and WB11/12 (number, MidNum|MidNumLet, number). */
function joinsAcross(left: WordBreak, middle: WordBreak, right: WordBreak): boolean {
  if (isLetter(left) && isLetter(right)) return middle === 'midLetter' || middle === 'midNumLet';
  if (left === 'numeric' && right === 'numeric')
    return middle === 'midNum' || middle === 'midNumLet';
  return false;
}

/**
 * Lucene's StandardTokenizer (UAX #29 word breaks) for the scripts Yeoul meets: a Hangul
 * run is one `<HANGUL>` token, each Han ideograph and hiragana character its own token,
 * katakana runs `<KATAKANA>`, and letter/number words (`SK하이닉스`, `2024년`, `50,000`,
 * `col:value`) `<ALPHANUM>` or `<NUM>`. URLs and e-mail are not special (neither are they
 * in StandardTokenizer); Thai and other complex scripts are read as plain letters.
 */
export function standardTokenize(text: string): Token[] {
  const units: Array<{ text: string; start: number; kind: WordBreak }> = [];
  let offset = 0;
  for (const character of text) {
    const previous = units.at(-1);
    if (previous && extend.test(character) && previous.kind !== 'other') previous.text += character;
    else units.push({ text: character, start: offset, kind: classOf(character) });
    offset += character.length;
  }
  const tokens: Token[] = [];
  let index = 0;
  while (index < units.length) {
    const unit = units[index] as (typeof units)[number];
    if (unit.kind === 'han' || unit.kind === 'hiragana' || unit.kind === 'emoji') {
      const type =
        unit.kind === 'han' ? '<IDEOGRAPHIC>' : unit.kind === 'hiragana' ? '<HIRAGANA>' : '<EMOJI>';
      tokens.push({ term: unit.text, start: unit.start, end: unit.start + unit.text.length, type });
      index += 1;
      continue;
    }
    if (!inWord(unit.kind)) {
      index += 1;
      continue;
    }
    const word = [unit];
    let next = index + 1;
    while (next < units.length) {
      const last = word.at(-1) as (typeof units)[number];
      const candidate = units[next] as (typeof units)[number];
      if (inWord(candidate.kind) && joins(last.kind, candidate.kind)) {
        word.push(candidate);
        next += 1;
        continue;
      }
      const after = units[next + 1];
      if (after && joinsAcross(last.kind, candidate.kind, after.kind)) {
        word.push(candidate, after);
        next += 2;
        continue;
      }
      break;
    }
    tokens.push(wordToken(word));
    index = next;
  }
  return tokens;
}

function wordToken(word: Array<{ text: string; start: number; kind: WordBreak }>): Token {
  const first = word[0] as (typeof word)[number];
  const last = word.at(-1) as (typeof word)[number];
  const kinds = new Set(word.map((unit) => unit.kind));
  let type: TokenType = '<ALPHANUM>';
  if (kinds.size === 1 && kinds.has('hangul')) type = '<HANGUL>';
  else if (kinds.size === 1 && kinds.has('katakana')) type = '<KATAKANA>';
  else if (![...kinds].some((kind) => isLetter(kind) || kind === 'katakana')) type = '<NUM>';
  return {
    term: word.map((unit) => unit.text).join(''),
    start: first.start,
    end: last.start + last.text.length,
    type,
  };
}
