import { isWhiteSpace } from '../text/fold-text.ts';

/**
 * One place of a phrase: one of some words (required, or optional; `starts` holds their first
 * characters, to skip a place quickly), a run of up to `max` filler words (English), up to
 * `gap` characters of anything (Korean), or the end of a clause (English: punctuation, the end of
 * the text, or one of the `stop` words such as "and").
 */
export type Slot =
  | { words: readonly string[]; starts: ReadonlySet<number>; optional?: boolean }
  | { fill: readonly string[]; max: number }
  | { gap: number }
  | { stop: readonly string[] };

/** A phrase: its slots in order; the first one is required words (the anchor). */
export type Phrase = readonly Slot[];

/** Whether a code is an ASCII letter of either case. */
export function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Letters, digits and the apostrophe: the characters of an English word. */
export function isWordCharacter(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x27;
}

/** A text's character against a phrase's (lower-case) one: ASCII letters match either case. */
export function sameCharacter(textCode: number, wordCode: number): boolean {
  return (
    textCode === wordCode || (wordCode >= 0x61 && wordCode <= 0x7a && textCode === wordCode - 32)
  );
}

/** Characters a Korean gap never crosses: the end of a sentence. */
function isSentenceEnd(code: number): boolean {
  return code === 0x2e || code === 0x3f || code === 0x21 || code === 0x3002;
}

/** The first position from `at` that is not white space. */
export function skipWhiteSpace(text: string, at: number): number {
  let position = at;
  while (position < text.length && isWhiteSpace(text.charCodeAt(position))) position += 1;
  return position;
}

/** Whether the character at `at` could start one of a slot's words (either case). */
function mayStart(slot: { starts: ReadonlySet<number> }, code: number): boolean {
  return slot.starts.has(code) || (code >= 0x41 && code <= 0x5a && slot.starts.has(code + 32));
}

/**
 * Where `word` ends when it is at `at` in folded text, white space allowed before it and between
 * any two of its characters (spaces between Korean words are optional); -1 when it is not.
 */
export function spacedWordEnd(text: string, at: number, word: string): number {
  let position = skipWhiteSpace(text, at);
  for (let index = 0; index < word.length; index += 1) {
    if (index > 0) position = skipWhiteSpace(text, position);
    if (!sameCharacter(text.charCodeAt(position), word.charCodeAt(index))) return -1;
    position += 1;
  }
  return position;
}

/**
 * Whether a phrase matches Korean folded text from `at`, spaces optional everywhere ("이전 지시를
 * 무시해", "이전지시를무시해" and "이 전 지 시 를 무 시 해" alike). A Latin word in it must not run
 * on into more letters (`dan` is not in `dance`); a gap counts characters, not spaces. Each call
 * does a bounded amount of work (the phrase's slots and gaps are small), so matching from every
 * anchor stays linear.
 */
export function matchesKorean(text: string, at: number, phrase: Phrase, index = 0): boolean {
  if (index === phrase.length) return true;
  const slot = phrase[index] as Slot;
  if ('gap' in slot) {
    let position = at;
    for (let skipped = 0; skipped <= slot.gap && position <= text.length; skipped += 1) {
      if (matchesKorean(text, position, phrase, index + 1)) return true;
      position = skipWhiteSpace(text, position);
      if (isSentenceEnd(text.charCodeAt(position))) return false;
      position += 1;
    }
    return false;
  }
  if ('fill' in slot || 'stop' in slot) return matchesKorean(text, at, phrase, index + 1);
  if (mayStart(slot, text.charCodeAt(skipWhiteSpace(text, at)))) {
    for (const word of slot.words) {
      const end = spacedWordEnd(text, at, word);
      if (end === -1) continue;
      if (isAsciiLetter(word.charCodeAt(word.length - 1)) && isAsciiLetter(text.charCodeAt(end)))
        continue;
      if (matchesKorean(text, end, phrase, index + 1)) return true;
    }
  }
  return slot.optional === true && matchesKorean(text, at, phrase, index + 1);
}

/** Where the next word starts after a word ending at `end`: past white space; -1 when punctuation ends the phrase. */
function nextWord(text: string, end: number): number {
  if (end >= text.length) return text.length;
  return isWhiteSpace(text.charCodeAt(end)) ? skipWhiteSpace(text, end) : -1;
}

/**
 * The position after `word` (one or more words) when it is at `at`, any white space standing
 * for each of its spaces, and it ends at a word boundary; else -1.
 */
function wordAt(text: string, at: number, word: string): number {
  if (at < 0) return -1;
  let position = at;
  for (let index = 0; index < word.length; index += 1) {
    const code = word.charCodeAt(index);
    if (code === 0x20) {
      if (!isWhiteSpace(text.charCodeAt(position))) return -1;
      position = skipWhiteSpace(text, position);
    } else if (!sameCharacter(text.charCodeAt(position), code)) return -1;
    else position += 1;
  }
  return isWordCharacter(text.charCodeAt(position)) ? -1 : position;
}

/**
 * Whether a phrase matches English text from the word at `at`: each slot's words at word
 * boundaries (either case), white space between words. Bounded work per call.
 */
export function matchesWords(
  text: string,
  at: number,
  phrase: Phrase,
  index = 0,
  filled = 0,
): boolean {
  if (index === phrase.length) return true;
  const slot = phrase[index] as Slot;
  if ('gap' in slot) return matchesWords(text, at, phrase, index + 1);
  if ('stop' in slot) {
    const ends =
      at === -1 || at >= text.length || slot.stop.some((word) => wordAt(text, at, word) !== -1);
    return ends && matchesWords(text, at, phrase, index + 1);
  }
  if ('fill' in slot) {
    if (matchesWords(text, at, phrase, index + 1)) return true;
    if (filled >= slot.max) return false;
    for (const word of slot.fill) {
      const end = wordAt(text, at, word);
      if (end !== -1 && matchesWords(text, nextWord(text, end), phrase, index, filled + 1))
        return true;
    }
    return false;
  }
  if (at >= 0 && mayStart(slot, text.charCodeAt(at))) {
    for (const word of slot.words) {
      const end = wordAt(text, at, word);
      if (end !== -1 && matchesWords(text, nextWord(text, end), phrase, index + 1)) return true;
    }
  }
  return slot.optional === true && matchesWords(text, at, phrase, index + 1);
}

function wordsSlot(list: string, optional: boolean): Slot {
  const all = list.split('|');
  return { words: all, starts: new Set(all.map((word) => word.charCodeAt(0))), optional };
}

/** Required words, written `a|b|c` (in lower case: they match either case). */
export function words(list: string): Slot {
  return wordsSlot(list, false);
}

/** Optional words, written `a|b|c`. */
export function optional(list: string): Slot {
  return wordsSlot(list, true);
}

/** Up to `characters` characters of anything (Korean phrases). */
export function gap(characters: number): Slot {
  return { gap: characters };
}

/** The end of a clause: punctuation, the end of the text, or one of some words (`a|b|c`). */
export function stop(list: string): Slot {
  return { stop: list.split('|') };
}

/** Up to `max` filler words, written `a|b|c` (English phrases). */
export function fill(max: number, list: string): Slot {
  return { fill: list.split('|'), max };
}
