import { foldText, foldWithOffsets } from '../text/fold-text.ts';
import { originalRange } from '../text/mapped-text.ts';

/** A deny list's word as it is matched: folded, and whether it must stand as a whole word. */
export interface DeniedWord {
  folded: string;
  /** A word without Hangul matches at word boundaries only. */
  wholeWord: boolean;
}

const hangul = /[\u1100-\u11FF\u3130-\u318F\uAC00-\uD7A3]/;

/** A deny list's words, folded like the text they are looked for in (empty ones left out). */
export function deniedWords(words: readonly string[]): DeniedWord[] {
  return words
    .map((word) => foldText(word).trim())
    .filter((folded) => folded.length > 0)
    .map((folded) => ({ folded, wholeWord: !hangul.test(folded) }));
}

function isWordCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0xc0 && code <= 0x24f)
  );
}

/**
 * Where a deny list's words are in a text: original ranges, in order, merged where they overlap.
 * A word with Hangul matches anywhere, another only between word boundaries; both after folding
 * (NFKC, lower case, zero-width characters removed, white space collapsed).
 * @example
 * findDenied('이건 기밀문서야', deniedWords(['기밀문서'])); // [{ start: 3, end: 7 }]
 */
export function findDenied(
  text: string,
  words: readonly DeniedWord[],
): Array<{ start: number; end: number }> {
  if (words.length === 0 || text.length === 0) return [];
  const mapped = foldWithOffsets(text);
  const folded = mapped.text;
  const spans: Array<[number, number]> = [];
  for (const word of words) {
    for (
      let at = folded.indexOf(word.folded);
      at !== -1;
      at = folded.indexOf(word.folded, at + 1)
    ) {
      const end = at + word.folded.length;
      if (
        word.wholeWord &&
        (isWordCharacter(folded.charCodeAt(at - 1)) || isWordCharacter(folded.charCodeAt(end)))
      )
        continue;
      spans.push([at, end]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<{ start: number; end: number }> = [];
  for (const [start, end] of spans) {
    const [from, to] = originalRange(mapped, start, end);
    const last = merged.at(-1);
    if (last !== undefined && from <= last.end) last.end = Math.max(last.end, to);
    else merged.push({ start: from, end: to });
  }
  return merged;
}

/**
 * How many characters at the end of a text could still grow into a denied word (the longest
 * end of the folded text that begins a word), in original characters; 0 when none.
 */
export function deniedPrefixLength(text: string, words: readonly DeniedWord[]): number {
  const longest = words.reduce((most, word) => Math.max(most, word.folded.length), 0);
  if (longest === 0) return 0;
  const from = Math.max(0, text.length - longest * 4 - 8);
  const mapped = foldWithOffsets(text.slice(from));
  const folded = mapped.text;
  let best = folded.length;
  for (const word of words) {
    for (let size = Math.min(word.folded.length - 1, folded.length); size > 0; size -= 1) {
      const start = folded.length - size;
      if (start >= best) break;
      if (word.folded.startsWith(folded.slice(start))) {
        best = start;
        break;
      }
    }
  }
  if (best === folded.length) return 0;
  const [start] = originalRange(mapped, best, folded.length);
  return text.length - (from + start);
}
