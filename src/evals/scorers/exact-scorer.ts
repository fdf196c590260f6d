import type { Scorer } from '../types.ts';
import { quoted } from './match-text.ts';

/** `exact`: the last answer is `expected`, character for character (ends trimmed). */
export const exactScorer: Scorer = {
  name: 'exact',
  score({ item, response }) {
    if (item.expected === undefined) {
      return { score: 0, passed: false, reason: 'the item has no "expected" to compare with' };
    }
    const passed = response.trim() === item.expected.trim();
    return {
      score: passed ? 1 : 0,
      passed,
      reason: passed
        ? 'the answer is exactly the expected text'
        : `the answer ${quoted(response)} is not ${quoted(item.expected)}`,
    };
  },
};
