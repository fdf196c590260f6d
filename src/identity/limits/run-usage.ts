import type { RunUsage } from './types.ts';

/**
 * The usage a run's state reports (a user graph's `usage` channel, as the chat state keeps
 * it), or undefined when it holds none.
 */
export function runUsageOf(value: unknown): RunUsage | undefined {
  const usage = value as Partial<RunUsage> | null | undefined;
  return typeof usage?.llmCalls === 'number' &&
    typeof usage.inputTokens === 'number' &&
    typeof usage.outputTokens === 'number'
    ? { llmCalls: usage.llmCalls, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }
    : undefined;
}
