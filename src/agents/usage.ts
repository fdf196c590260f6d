import type { AgentUsage } from './types.ts';

/** Adds a model call's usage (or another run's: pass its `llmCalls` as `calls`) to the run's. */
export function addUsage(
  usage: AgentUsage,
  call: { inputTokens: number; outputTokens: number },
  calls = 1,
): AgentUsage {
  return {
    llmCalls: usage.llmCalls + calls,
    inputTokens: usage.inputTokens + call.inputTokens,
    outputTokens: usage.outputTokens + call.outputTokens,
  };
}
