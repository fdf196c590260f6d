import { porterStem } from './porter-stem.ts';

/** What FTS5's unicode61 tokenizer splits on: anything but letters, numbers and private-use characters. */
const separators = /[^\p{L}\p{N}\p{Co}]+/u;

/**
 * Whether a term is all Hangul syllables and Han ideographs: letters without case or
 * accents that Porter leaves alone (kana is not: it has marks and a separator, ・).
 */
function isHangulOrHan(term: string): boolean {
  for (let index = 0; index < term.length; index += 1) {
    const code = term.charCodeAt(index);
    if (!((code >= 0xac00 && code <= 0xd7a3) || (code >= 0x4e00 && code <= 0x9fff))) return false;
  }
  return term.length > 0;
}

/** Recent words and their tokens: ranking re-tokenizes candidate chunks on every search. */
const recentTokens = new Map<string, string>();
const recentTokensLimit = 20_000;

/** A Latin letter followed by combining marks (an accent, once decomposed). */
const accentedLatin = /([A-Za-z\u00c0-\u024f\u1e00-\u1eff])\p{Mn}+/gu;

/**
 * The index tokens of analyzer terms (`indexTerms`, `queryTerms`), exactly as SQLite's
 * `porter unicode61 remove_diacritics 2` tokenizer makes them from the same terms: split
 * where unicode61 splits, lower-cased, accents removed from Latin letters, Porter-stemmed.
 * Backends that rank in another database (PostgreSQL) store and search these, so their
 * terms, and hence their BM25 scores, are the embedded index's. Duplicates are kept.
 */
export function keywordTokens(terms: readonly string[]): string[] {
  const tokens: string[] = [];
  for (const term of terms) {
    // Most terms are Hangul bigrams: they are their own token.
    if (isHangulOrHan(term)) {
      tokens.push(term);
      continue;
    }
    for (const part of term.split(separators)) {
      if (part === '') continue;
      const known = recentTokens.get(part);
      if (known !== undefined) {
        tokens.push(known);
        continue;
      }
      // Only text beyond printable ASCII can carry accents.
      const folded = /[^ -~]/.test(part)
        ? part.normalize('NFD').replace(accentedLatin, '$1').normalize('NFC')
        : part;
      const token = porterStem(folded.toLowerCase());
      if (recentTokens.size >= recentTokensLimit) recentTokens.clear();
      recentTokens.set(part, token);
      tokens.push(token);
    }
  }
  return tokens;
}
