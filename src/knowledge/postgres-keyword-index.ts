import { type PostgresPool, queryPostgres } from '../core/index.ts';
import type { WeightedToken } from './weighted-bm25.ts';

/** A chunk's rank in one ranking, best first. */
export interface RankedChunk {
  rowid: number;
  score: number;
}

/** How often each token occurs in a chunk's title and in its body (heading and text). */
export function chunkPostings(
  titleTokens: readonly string[],
  bodyTokens: readonly string[],
): Map<string, { title: number; body: number }> {
  const postings = new Map<string, { title: number; body: number }>();
  const entry = (token: string) => {
    let found = postings.get(token);
    if (found === undefined) {
      found = { title: 0, body: 0 };
      postings.set(token, found);
    }
    return found;
  };
  for (const token of titleTokens) entry(token).title += 1;
  for (const token of bodyTokens) entry(token).body += 1;
  return postings;
}

// BM25 as SQLite's FTS5 computes bm25(): k1 = 1.2, b = 0.75; a token's frequency in a chunk
// is its title count times the title weight plus its body count; the chunk's length is all
// its tokens; IDF = ln((N - n + 0.5) / (n + 0.5)), at least 1e-6; every query token (a
// repeated one too) adds its own term, as each quoted FTS5 phrase does, multiplied by the
// token's weight — the formula of weightedBm25, which the SQLite retriever applies.
const rankSql = `
WITH query AS (
  SELECT term, weight, position
  FROM unnest($1::text[], $4::float8[]) WITH ORDINALITY AS query (term, weight, position)
),
matches AS (
  SELECT query.position, query.weight, postings.chunk_rowid, postings.chunk_term_count,
    postings.title_frequency * $2::float8 + postings.body_frequency AS frequency,
    count(*) OVER (PARTITION BY query.position) AS hits
  FROM query
  -- Per query token (OFFSET 0 keeps the planner from flattening it), so postings are read
  -- through the index even before the table has statistics (right after a bulk ingest).
  CROSS JOIN LATERAL (
    SELECT chunk_rowid, title_frequency, body_frequency, chunk_term_count FROM kb_postings
    WHERE term = query.term OFFSET 0
  ) AS postings
),
corpus AS (
  SELECT (SELECT chunk_count::float8 FROM kb_statistics) AS chunks,
    (SELECT term_count::float8 / greatest(chunk_count, 1) FROM kb_statistics) AS average_length
),
weighted AS (
  SELECT matches.chunk_rowid, matches.frequency, matches.weight,
    ln((corpus.chunks - matches.hits + 0.5) / (matches.hits + 0.5)) AS idf,
    matches.chunk_term_count / nullif(corpus.average_length, 0) AS relative_length
  FROM matches CROSS JOIN corpus
)
SELECT chunk_rowid AS rowid,
  sum(
    weight * (CASE WHEN idf > 0 THEN idf ELSE 1e-6 END) * frequency * 2.2
    / (frequency + 1.2 * (0.25 + 0.75 * relative_length))
  ) AS score
FROM weighted
GROUP BY chunk_rowid
ORDER BY score DESC, chunk_rowid
LIMIT $3`;

/**
 * The `limit` chunks that best match the weighted query `tokens` (from
 * `weightedKeywordTokens`), by weighted BM25 computed in the database over the postings
 * table, best first.
 */
export async function keywordRanks(
  pool: PostgresPool,
  tokens: readonly WeightedToken[],
  titleWeight: number,
  limit: number,
): Promise<RankedChunk[]> {
  if (tokens.length === 0) return [];
  const { rows } = await queryPostgres<{ rowid: string; score: number }>(pool, rankSql, [
    tokens.map(({ token }) => token),
    titleWeight,
    limit,
    tokens.map(({ weight }) => weight),
  ]);
  return rows.map((row) => ({ rowid: Number(row.rowid), score: Number(row.score) }));
}
