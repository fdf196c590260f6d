import { englishPhrases } from './english-phrases.ts';
import type { InjectionFamily } from './injection-families.ts';
import { koreanPhrases } from './korean-phrases.ts';
import { isWordCharacter, type Phrase, type Slot } from './phrase-matchers.ts';

/** A phrase of a family; a negatable one does not count after "not", "don't", …. */
export interface PhraseEntry {
  family: InjectionFamily;
  phrase: Phrase;
  negatable?: boolean;
}

/** A Korean phrase under one of its anchors: the rest is matched from its second slot. */
export interface Anchored {
  anchor: string;
  entry: PhraseEntry;
}

/**
 * The phrases by where they can start: Korean ones by their anchor's first two characters (one
 * for a one-character anchor), English ones by their anchor's first word.
 */
export interface PhraseIndex {
  /** Per character: 0 when no anchor starts with it, else its small number (an ASCII capital's is its small letter's). */
  koreanFirst: Uint16Array;
  /** A bit per {@link anchorKey} that some anchor has: most lookups end here, without the map. */
  koreanPairs: Uint8Array;
  /** By {@link anchorKey}. */
  korean: Map<number, Anchored[]>;
  english: Map<string, PhraseEntry[]>;
}

/** The key of an anchor: its first character's small number and its second character (0 for none). */
export function anchorKey(first: number, second: number): number {
  return first * 65_536 + second;
}

function anchorsOf(phrase: Phrase): readonly string[] {
  const first = phrase[0] as Slot;
  if (!('words' in first) || first.optional) throw new Error('a phrase starts with required words');
  return first.words;
}

function add<Key, Value>(map: Map<Key, Value[]>, key: Key, value: Value): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/** The first word of an English anchor, as the scan reads words. */
function firstWord(anchor: string): string {
  let end = 0;
  while (end < anchor.length && isWordCharacter(anchor.charCodeAt(end))) end += 1;
  return anchor.slice(0, end);
}

let built: PhraseIndex | undefined;

/** The index of every phrase, built on first use. */
export function phraseIndex(): PhraseIndex {
  if (built !== undefined) return built;
  const index: PhraseIndex = {
    koreanFirst: new Uint16Array(65_536),
    koreanPairs: new Uint8Array(0),
    korean: new Map(),
    english: new Map(),
  };
  let firsts = 0;
  for (const entry of koreanPhrases) {
    for (const anchor of anchorsOf(entry.phrase)) {
      const code = anchor.charCodeAt(0);
      if (index.koreanFirst[code] === 0) {
        firsts += 1;
        index.koreanFirst[code] = firsts;
        // Anchors are lower case and match either case: the capital shares the number.
        if (code >= 0x61 && code <= 0x7a) index.koreanFirst[code - 32] = firsts;
      }
      const second = anchor.length === 1 ? 0 : anchor.charCodeAt(1);
      add(index.korean, anchorKey(index.koreanFirst[code] as number, second), { anchor, entry });
    }
  }
  index.koreanPairs = new Uint8Array(((firsts + 1) * 65_536) / 8);
  for (const key of index.korean.keys()) {
    index.koreanPairs[key >>> 3] = (index.koreanPairs[key >>> 3] as number) | (1 << (key & 7));
  }
  for (const entry of englishPhrases) {
    for (const word of new Set(anchorsOf(entry.phrase).map(firstWord)))
      add(index.english, word, entry);
  }
  built = index;
  return index;
}
