import { porterStem } from './porter-stem.ts';

/** What FTS5's unicode61 tokenizer splits on: anything but letters, numbers and private-use characters. */
const separators = /[^\p{L}\p{N}\p{Co}]+/u;

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
    for (const part of term.split(separators)) {
      if (part === '') continue;
      // Only text beyond printable ASCII can carry accents.
      const folded = /[^ -~]/.test(part)
        ? part.normalize('NFD').replace(accentedLatin, '$1').normalize('NFC')
        : part;
      tokens.push(porterStem(folded.toLowerCase()));
    }
  }
  return tokens;
}
