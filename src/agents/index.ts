export { buildChatGraph } from './chat/build-chat-graph.ts';
export { addUsage, type ChatState, chatRunInput, chatState, zeroUsage } from './chat/chat-state.ts';
export { decideRoute, type RouteDecision, termCoverage } from './chat/decide-route.ts';
export { maxToolCallsPerRequest } from './chat/tools-node.ts';
export { createMemoryNode } from './memory/memory-node.ts';
export { defaultMemorySettings, type MemorySettings } from './memory/memory-settings.ts';
export { planSummary, type SummaryPlan, transcriptOf } from './memory/plan-summary.ts';
export {
  addSummaryToWindow,
  formatSummaryForPrompt,
  summarySeparator,
} from './memory/summary-window.ts';
export { agentSystemPrompt, defaultPersona, routerPrompt, summarizerPrompt } from './prompts.ts';
export type {
  AgentDependencies,
  AgentError,
  AgentOptions,
  AgentSource,
  AgentUsage,
} from './types.ts';
