import { forEachCluster, type MappedText, nfkc } from './mapped-text.ts';

/** Zero-width characters an attacker hides inside words: U+200B–U+200D, U+2060, U+FEFF. */
const zeroWidth = /[\u200B-\u200D\u2060\uFEFF]/g;
/** Runs of white space that are not already one plain space (most are: they stay untouched). */
const whiteRuns = /\s{2,}|[^\S ]/g;

/** Whether a code unit is white space (JavaScript's `\s`, zero-width no-break space aside). */
export function isWhiteSpace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Whether a code unit is one of the zero-width characters that folding removes. */
export function isZeroWidth(code: number): boolean {
  return (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

/**
 * Text as the phrase and word matchers compare it: zero-width characters removed, NFKC, lower
 * case, every run of white space one space. Native passes only.
 * @example
 * foldText('ＩＧＮＯＲＥ\u200B  previous'); // 'ignore previous'
 */
export function foldText(text: string): string {
  return nfkc(text.replace(zeroWidth, '')).toLowerCase().replace(whiteRuns, ' ');
}

/**
 * {@link foldText} with offsets back into the original, for matches that replace the original
 * characters (a deny list's `redact`).
 */
export function foldWithOffsets(original: string): MappedText {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let lastWasSpace = false;
  const put = (unit: string, start: number, end: number) => {
    const space = isWhiteSpace(unit.charCodeAt(0));
    if (space && lastWasSpace) {
      ends[ends.length - 1] = end;
      return;
    }
    lastWasSpace = space;
    text += space ? ' ' : unit;
    starts.push(start);
    ends.push(end);
  };
  forEachCluster(original, (start, end, inert) => {
    if (inert) {
      for (let at = start; at < end; at += 1) {
        const code = original.charCodeAt(at);
        put(
          code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : (original[at] as string),
          at,
          at + 1,
        );
      }
      return;
    }
    const piece = original.slice(start, end);
    if (isZeroWidth(piece.charCodeAt(0)) && piece.length === 1) return;
    const folded = piece.replace(zeroWidth, '').normalize('NFKC').toLowerCase();
    for (let unit = 0; unit < folded.length; unit += 1) put(folded[unit] as string, start, end);
  });
  return { text, starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}
