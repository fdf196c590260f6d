import type { Scorer } from '../types.ts';
import { quoted, statesExpected } from './match-text.ts';

/** `contains`: the last answer states `expected` (numbers by value: `56,088` = `56088`). */
export const containsScorer: Scorer = {
  name: 'contains',
  appliesByDefault: (item) => item.expected !== undefined,
  score({ item, response }) {
    if (item.expected === undefined) {
      return { score: 1, passed: true, reason: 'the item expects nothing' };
    }
    const passed = statesExpected(response, item.expected);
    return {
      score: passed ? 1 : 0,
      passed,
      reason: passed
        ? `the answer states ${quoted(item.expected)}`
        : `the answer ${quoted(response)} does not state ${quoted(item.expected)}`,
    };
  },
};
