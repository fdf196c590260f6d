import type { Scorer } from '../types.ts';

/** `latency`: reports the item's milliseconds; fails only above the item's `maxLatencyMs`. */
export const latencyScorer: Scorer = {
  name: 'latency',
  score({ item, latencyMs }) {
    const milliseconds = Math.round(latencyMs);
    const limit = item.maxLatencyMs;
    const passed = limit === undefined || latencyMs <= limit;
    return {
      score: passed ? 1 : 0,
      passed,
      reason: `${milliseconds} ms${limit === undefined ? '' : passed ? ` (≤ ${limit} ms)` : ` (above the limit of ${limit} ms)`}`,
    };
  },
};

/** `tokens`: reports the item's tokens (input + output); fails only above `maxTokens`. */
export const tokensScorer: Scorer = {
  name: 'tokens',
  score({ item, usage }) {
    const total = usage.inputTokens + usage.outputTokens;
    const limit = item.maxTokens;
    const passed = limit === undefined || total <= limit;
    const detail = `${total} tokens (${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.llmCalls} LLM calls)`;
    return {
      score: passed ? 1 : 0,
      passed,
      reason: `${detail}${limit === undefined ? '' : passed ? ` ≤ ${limit}` : `, above the limit of ${limit}`}`,
    };
  },
};
