import type { Scorer } from '../types.ts';

/** `sources`: every `expectedSources` document id is among the answers' sources. */
export const sourcesScorer: Scorer = {
  name: 'sources',
  appliesByDefault: (item) => item.expectedSources !== undefined,
  score({ item, sources }) {
    const expected = item.expectedSources ?? [];
    const cited = new Set(sources.map((source) => source.documentId));
    const missing = expected.filter((id) => !cited.has(id));
    const found = expected.length - missing.length;
    const citedList = cited.size > 0 ? [...cited].join(', ') : 'none';
    return {
      score: expected.length === 0 ? 1 : found / expected.length,
      passed: missing.length === 0,
      reason:
        missing.length === 0
          ? `cites ${expected.join(', ') || 'what it must'} (sources: ${citedList})`
          : `missing source${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (sources: ${citedList})`,
    };
  },
};
