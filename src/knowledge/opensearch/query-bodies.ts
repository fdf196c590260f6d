import { hitFields, type KoreanAnalysis, searchedFields } from './index-definition.ts';

/**
 * The text of a keyword query, from the query and its terms (`queryTerms(query)`). With CJK
 * bigrams the index cannot strip particles or question words, so the query is Yeoul's own
 * query terms (as SqliteRetriever searches them); nori analyses the words itself. Empty when
 * nothing is worth searching for.
 */
export function keywordQueryText(
  query: string,
  terms: readonly string[],
  analysis: KoreanAnalysis,
): string {
  if (terms.length === 0) return '';
  if (analysis === 'nori') return query.trim();
  // A Hangul stem of three or more syllables adds nothing its bigrams (also in the list) do not.
  return terms.filter((term) => !/^[\uac00-\ud7a3]{3,}$/.test(term)).join(' ');
}

/** BM25 over title (×2) and body: `multi_match` of type `most_fields`, which sums the fields' scores. */
export function keywordSearchBody(text: string, size: number): Record<string, unknown> {
  return {
    size,
    _source: [...hitFields],
    query: { multi_match: { query: text, type: 'most_fields', fields: [...searchedFields] } },
  };
}

/** The `size` nearest chunks to a vector (k-NN, HNSW, cosine). */
export function vectorSearchBody(vector: number[], size: number): Record<string, unknown> {
  return {
    size,
    _source: [...hitFields],
    query: { knn: { embedding: { vector, k: size } } },
  };
}

/** Every index entry of a document. */
export function documentQuery(documentId: string): Record<string, unknown> {
  return { term: { documentId } };
}

/** A document's entries from writes older than `ticket` (chunks a new version no longer has). */
export function staleChunksQuery(documentId: string, ticket: number): Record<string, unknown> {
  return {
    bool: { filter: [{ term: { documentId } }, { range: { ticket: { lt: ticket } } }] },
  };
}

/** Lucene's cosine score for k-NN is (1 + cos) / 2; the cosine back from it. */
export function cosineOfScore(score: number): number {
  return 2 * score - 1;
}
