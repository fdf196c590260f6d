import type { EvalRunItem, EvalSummary, ItemScore } from './types.ts';

/** The mean of an item's scores (1 for an item no scorer ran on). */
export function itemScore(scores: ItemScore[]): number {
  if (scores.length === 0) return 1;
  return scores.reduce((total, entry) => total + entry.score, 0) / scores.length;
}

/**
 * A run's totals: items passed and failed, the mean of the items' mean scores, and each
 * scorer's mean over the items it scored. Rounded to 4 places, so that runs compare equal.
 */
export function summarizeRun(items: EvalRunItem[]): EvalSummary {
  const passed = items.filter((item) => item.passed).length;
  const byScorer: Record<string, { total: number; count: number }> = {};
  for (const item of items) {
    for (const entry of item.scores) {
      const slot = byScorer[entry.scorer] ?? { total: 0, count: 0 };
      slot.total += entry.score;
      slot.count += 1;
      byScorer[entry.scorer] = slot;
    }
  }
  const mean =
    items.length === 0
      ? 0
      : items.reduce((total, item) => total + itemScore(item.scores), 0) / items.length;
  return {
    items: items.length,
    passed,
    failed: items.length - passed,
    meanScore: round(mean),
    byScorer: Object.fromEntries(
      Object.entries(byScorer).map(([name, slot]) => [name, round(slot.total / slot.count)]),
    ),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
