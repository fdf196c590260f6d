import type { SearchHit } from './types.ts';

/** The constant of reciprocal rank fusion: how much the top ranks dominate (60 is the usual choice). */
const fusionConstant = 60;

/**
 * Reciprocal rank fusion: each item scores Σ 1 / (60 + rank) over the rankings it is in,
 * so items ranked well by both keyword and vector search come first.
 */
export function fuseRankings(
  rankings: Array<Array<{ rowid: number }>>,
): Array<{ rowid: number; score: number }> {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((entry, index) => {
      scores.set(entry.rowid, (scores.get(entry.rowid) ?? 0) + 1 / (fusionConstant + index + 1));
    });
  }
  return [...scores].map(([rowid, score]) => ({ rowid, score })).sort((a, b) => b.score - a.score);
}

/** How many hits a search returns: `k` (5 by default), between 1 and 50. */
export function hitCount(k: number | undefined): number {
  return Math.min(Math.max(Math.trunc(k ?? 5), 1), 50);
}

/** The top `k` of the keyword ranking, fused with the vector ranking when there is one. */
export function topRanked(
  keyword: Array<{ rowid: number; score: number }>,
  vector: Array<{ rowid: number }>,
  k: number,
): Array<{ rowid: number; score: number }> {
  return vector.length === 0 ? keyword.slice(0, k) : fuseRankings([keyword, vector]).slice(0, k);
}

/** The fields of a ranked chunk a hit shows, as a backend reads them. */
export interface HitFields {
  document_id: string;
  chunk_id: string;
  title: string;
  heading: string;
  text: string;
  metadata: Record<string, unknown>;
}

/** The hits in rank order with their scores; a chunk removed since it was ranked is left out. */
export function hitsInRankOrder(
  ranked: Array<{ rowid: number; score: number }>,
  rows: Map<number, HitFields>,
): SearchHit[] {
  return ranked.flatMap(({ rowid, score }) => {
    const row = rows.get(rowid);
    if (row === undefined) return [];
    return [
      {
        documentId: row.document_id,
        chunkId: row.chunk_id,
        title: row.title,
        heading: row.heading,
        text: row.text,
        score,
        metadata: row.metadata,
      },
    ];
  });
}
