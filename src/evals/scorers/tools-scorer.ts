import type { Scorer } from '../types.ts';

/**
 * `tools`, a trajectory check: the item's runs called `expectedTools` in this order (other
 * calls may come between). The score is the share of the expected calls found in order.
 */
export const toolsScorer: Scorer = {
  name: 'tools',
  appliesByDefault: (item) => item.expectedTools !== undefined,
  score({ item, toolCalls }) {
    const expected = item.expectedTools ?? [];
    const called = toolCalls.map((call) => call.name);
    let next = 0;
    for (const name of called) {
      if (next < expected.length && name === expected[next]) next += 1;
    }
    const passed = next === expected.length;
    const trajectory = called.length > 0 ? called.join(' → ') : 'no tool';
    return {
      score: expected.length === 0 ? 1 : next / expected.length,
      passed,
      reason: passed
        ? `called ${expected.length > 0 ? expected.join(' → ') : 'nothing expected'} (calls: ${trajectory})`
        : `expected ${expected.join(' → ')} in order; missing ${expected[next]}${
            next > 0 ? ` after ${expected.slice(0, next).join(' → ')}` : ''
          } (calls: ${trajectory})`,
    };
  },
};
