/**
 * A text after normalisation, with where each of its UTF-16 units came from in the original,
 * so that a match found in it replaces the original characters.
 */
export interface MappedText {
  text: string;
  /** The original offset where unit i's source starts; absent: the same offsets as the original. */
  starts?: Int32Array;
  /** The original offset where unit i's source ends. */
  ends?: Int32Array;
}

/** The original range `[start, end)` of a normalised range (an empty range maps to a point). */
export function originalRange(mapped: MappedText, start: number, end: number): [number, number] {
  const { starts, ends } = mapped;
  if (starts === undefined || ends === undefined) return [start, end];
  if (end <= start) {
    const at = start < starts.length ? (starts[start] as number) : (ends.at(-1) ?? 0);
    return [at, at];
  }
  return [starts[start] as number, ends[end - 1] as number];
}

/**
 * Whether a code point may join the one before it under normalisation (a combining mark, a
 * Hangul vowel or final consonant, a half-width voicing mark): it stays in its predecessor's
 * cluster. Everything below U+0300, Hangul syllables and CJK ideographs never do.
 */
export function joinsPrevious(code: number): boolean {
  if (code < 0x300) return false;
  if (code >= 0xac00 && code <= 0xd7a3) return false;
  if (code >= 0x4e00 && code <= 0x9fff) return false;
  if (code >= 0xff00 && code <= 0xffef) return code === 0xff9e || code === 0xff9f;
  if ((code >= 0x1160 && code <= 0x11ff) || (code >= 0xd7b0 && code <= 0xd7ff)) return true;
  return combiningMark.test(String.fromCodePoint(code));
}

const combiningMark = /^\p{M}$/u;

/** Code points that never change under NFKC and never join a neighbour: copied as they are. */
export function isInert(code: number): boolean {
  return code < 0xa0 || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0x4e00 && code <= 0x9fff);
}

/**
 * Calls `emit(start, end, inert)` for each cluster of `text` in order: a run of inert code units
 * whole, or one code point with the marks that join it. The clusters cover the text exactly.
 */
export function forEachCluster(
  text: string,
  emit: (start: number, end: number, inert: boolean) => void,
): void {
  const length = text.length;
  let at = 0;
  while (at < length) {
    let start = at;
    while (at < length && isInert(text.charCodeAt(at))) at += 1;
    const joined = at < length && at > start && joinsPrevious(text.codePointAt(at) as number);
    // The last inert unit of a run goes with the marks that join it ('e' + U+0301).
    if (joined) at -= 1;
    if (at > start) emit(start, at, true);
    if (at >= length) return;
    start = at;
    at += (text.codePointAt(at) as number) > 0xffff ? 2 : 1;
    while (at < length) {
      const next = text.codePointAt(at) as number;
      if (!joinsPrevious(next)) break;
      at += next > 0xffff ? 2 : 1;
    }
    emit(start, at, false);
  }
}

let lastInput = '';
let lastOutput = '';

/**
 * `text.normalize('NFKC')`, remembering the last text: the guardrails of a stage read the same
 * message one after another, and it is normalised once.
 */
export function nfkc(text: string): string {
  if (text !== lastInput) {
    lastOutput = text.normalize('NFKC');
    lastInput = text;
  }
  return lastOutput;
}

/**
 * The text under NFKC (full-width digits and letters become ASCII), with offsets back into the
 * original. A text NFKC leaves as it is (most) costs one native pass and keeps its offsets.
 * @example
 * const mapped = nfkcWithOffsets('카드 ４１１１'); // mapped.text === '카드 4111'
 */
export function nfkcWithOffsets(original: string): MappedText {
  const whole = nfkc(original);
  if (whole === original) return { text: original };
  const parts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  forEachCluster(original, (start, end, inert) => {
    const piece = inert ? original.slice(start, end) : original.slice(start, end).normalize('NFKC');
    parts.push(piece);
    if (inert) {
      for (let at = start; at < end; at += 1) {
        starts.push(at);
        ends.push(at + 1);
      }
    } else {
      for (let unit = 0; unit < piece.length; unit += 1) {
        starts.push(start);
        ends.push(end);
      }
    }
  });
  return { text: parts.join(''), starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}
