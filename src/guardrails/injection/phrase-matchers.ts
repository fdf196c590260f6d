/**
 * One place of a phrase: one of some words (required, or optional), a run of up to `max` filler
 * words (English), or up to `gap` characters of anything (Korean).
 */
export type Slot =
  | { words: readonly string[]; optional?: boolean }
  | { fill: readonly string[]; max: number }
  | { gap: number };

/** A phrase: its slots in order; the first one is required words (the anchor). */
export type Phrase = readonly Slot[];

function isAsciiLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** Letters, digits and the apostrophe: the characters of an English word (after folding). */
export function isWordCharacter(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x27;
}

/** Characters a Korean gap never crosses: the end of a sentence. */
function isSentenceEnd(code: number): boolean {
  return code === 0x2e || code === 0x3f || code === 0x21 || code === 0x3002;
}

/**
 * Whether a phrase matches Korean text with its spaces removed, from `at` on. A Latin word in it
 * must not run on into more letters (`dan` is not in `dance`). Each call does a bounded amount of
 * work (the phrase's slots and gaps are small), so matching from every anchor stays linear.
 */
export function matchesCompact(text: string, at: number, phrase: Phrase, index = 0): boolean {
  if (index === phrase.length) return true;
  const slot = phrase[index] as Slot;
  if ('gap' in slot) {
    for (let skip = 0; skip <= slot.gap && at + skip <= text.length; skip += 1) {
      if (skip > 0 && isSentenceEnd(text.charCodeAt(at + skip - 1))) return false;
      if (matchesCompact(text, at + skip, phrase, index + 1)) return true;
    }
    return false;
  }
  if ('fill' in slot) return matchesCompact(text, at, phrase, index + 1);
  for (const word of slot.words) {
    if (!text.startsWith(word, at)) continue;
    const end = at + word.length;
    if (isAsciiLetter(word.charCodeAt(word.length - 1)) && isAsciiLetter(text.charCodeAt(end)))
      continue;
    if (matchesCompact(text, end, phrase, index + 1)) return true;
  }
  return slot.optional === true && matchesCompact(text, at, phrase, index + 1);
}

/** Where the next word starts after a word ending at `end`: past one space; -1 when punctuation ends the phrase. */
function nextWord(text: string, end: number): number {
  if (end >= text.length) return text.length;
  return text.charCodeAt(end) === 0x20 ? end + 1 : -1;
}

/** The position after `word` when it is at `at` and ends at a word boundary, else -1. */
function wordAt(text: string, at: number, word: string): number {
  if (at < 0 || !text.startsWith(word, at)) return -1;
  const end = at + word.length;
  return isWordCharacter(text.charCodeAt(end)) ? -1 : end;
}

/**
 * Whether a phrase matches English text (folded: lower case, single spaces) from the word at
 * `at`: each slot's words at word boundaries, one space between words. Bounded work per call.
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
  for (const word of slot.words) {
    const end = wordAt(text, at, word);
    if (end !== -1 && matchesWords(text, nextWord(text, end), phrase, index + 1)) return true;
  }
  return slot.optional === true && matchesWords(text, at, phrase, index + 1);
}

/** Required words, written `a|b|c`. */
export function words(list: string): Slot {
  return { words: list.split('|') };
}

/** Optional words, written `a|b|c`. */
export function optional(list: string): Slot {
  return { words: list.split('|'), optional: true };
}

/** Up to `characters` characters of anything (Korean phrases). */
export function gap(characters: number): Slot {
  return { gap: characters };
}

/** Up to `max` filler words, written `a|b|c` (English phrases). */
export function fill(max: number, list: string): Slot {
  return { fill: list.split('|'), max };
}
