/** Hangul syllables, jamo and compatibility jamo. */
const hangul = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;

/**
 * True when `text` holds Korean letters; the HTTP tools use it to pick Korean services
 * (`ko` geocoding, ko.wikipedia.org) for Korean queries.
 * @example hasHangul('서울 날씨') // true
 */
export function hasHangul(text: string): boolean {
  return hangul.test(text);
}
