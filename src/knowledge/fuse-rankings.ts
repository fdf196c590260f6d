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
