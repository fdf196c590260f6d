import { type WeightedTerm, weightedQueryTerms } from './analyzer.ts';
import { keywordTokens } from './keyword-tokens.ts';

/** A query token, as the keyword index stores it, and how much its matches count. */
export interface WeightedToken {
  token: string;
  weight: number;
}

/** Weighted analyzer terms as index tokens (`keywordTokens`), each keeping its term's weight. */
export function withTokens(terms: readonly WeightedTerm[]): WeightedToken[] {
  return terms.flatMap(({ term, weight }) =>
    keywordTokens([term]).map((token) => ({ token, weight })),
  );
}

/** The index tokens of a query with their weights (`weightedQueryTerms`), in query order. */
export function weightedKeywordTokens(query: string): WeightedToken[] {
  return withTokens(weightedQueryTerms(query));
}

/** What BM25 needs to know about the whole index. */
export interface Bm25Statistics {
  /** Chunks in the index. */
  chunks: number;
  /** Tokens per chunk (title and body), on average. */
  averageLength: number;
  /** How many chunks hold each query token. */
  chunksWith: ReadonlyMap<string, number>;
}

/** FTS5's bm25() constants (k1, b), which both keyword backends use. */
const k1 = 1.2;
const b = 0.75;

/**
 * A chunk's BM25 score exactly as SQLite FTS5's bm25() computes it — IDF
 * ln((N − n + 0.5) / (n + 0.5)), at least 1e-6; a token's frequency is its title count
 * times `titleWeight` plus its body count; the chunk's length is all its tokens — except
 * that each query token's term is multiplied by its weight. A token listed twice counts
 * twice, as a repeated FTS5 phrase does.
 */
export function weightedBm25(
  query: readonly WeightedToken[],
  statistics: Bm25Statistics,
  chunk: { titleTokens: readonly string[]; bodyTokens: readonly string[] },
  titleWeight: number,
): number {
  const frequencies = new Map<string, number>(query.map(({ token }) => [token, 0]));
  for (const token of chunk.titleTokens) {
    const count = frequencies.get(token);
    if (count !== undefined) frequencies.set(token, count + titleWeight);
  }
  for (const token of chunk.bodyTokens) {
    const count = frequencies.get(token);
    if (count !== undefined) frequencies.set(token, count + 1);
  }
  const length = chunk.titleTokens.length + chunk.bodyTokens.length;
  return weightedBm25OfCounts(query, statistics, frequencies, length);
}

/**
 * `weightedBm25` from counts a store already keeps: each query token's frequency in the
 * chunk (absent = 0) and the chunk's length in tokens.
 */
export function weightedBm25OfCounts(
  query: readonly WeightedToken[],
  statistics: Bm25Statistics,
  frequencies: ReadonlyMap<string, number>,
  length: number,
): number {
  const norm = k1 * (1 - b + (b * length) / statistics.averageLength);
  let score = 0;
  for (const { token, weight } of query) {
    const frequency = frequencies.get(token) ?? 0;
    if (frequency === 0) continue;
    const hits = statistics.chunksWith.get(token) ?? 0;
    const idf = Math.log((statistics.chunks - hits + 0.5) / (hits + 0.5));
    score += (weight * (idf > 0 ? idf : 1e-6) * frequency * (k1 + 1)) / (frequency + norm);
  }
  return score;
}
