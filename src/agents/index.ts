export {
  type AgentRequest,
  type AgentRequestOptions,
  type AgentResponse,
  type ApprovalDecision,
  type ApprovalInterrupt,
  approvalOf,
  type RunCancelReason,
  type RunLimits,
} from './agent-payload.ts';
export { createAgentNode } from './chat/agent-node.ts';
export { buildChatGraph } from './chat/build-chat-graph.ts';
export { chatRunInput, chatState } from './chat/chat-state.ts';
export { decideRoute } from './chat/decide-route.ts';
export { createRagNode } from './chat/rag-node.ts';
export { createRouterNode } from './chat/router-node.ts';
export { createToolsNode } from './chat/tools-node.ts';
export type { ClientToolOutput } from './client-tools.ts';
export { createGraphKit, type GraphKit, type KitLogger } from './graph-kit.ts';
export { createMemoryNode } from './memory/memory-node.ts';
export type { MemorySettings } from './memory/memory-settings.ts';
export { profileExtractorPrompt } from './memory/profile-facts.ts';
export { summarySeparator } from './memory/summary-window.ts';
export { evaluateAnswer } from './ops/evaluation.ts';
export type { Evaluation } from './ops/evaluation-types.ts';
export { assessGrounding } from './ops/grounding-check.ts';
export { opsState } from './ops/ops-state.ts';
export { readToolFacts } from './ops/tool-facts.ts';
export { agentSystemPrompt, defaultPersona, routerPrompt } from './prompts.ts';
export { buildReactGraph, reactRunInput } from './react/build-react-graph.ts';
export { reactState } from './react/react-state.ts';
export {
  type BuiltinGraphName,
  builtinGraphNames,
  defaultGraphName,
  evaluationGraphName,
  graphNameOf,
  isBuiltinGraph,
} from './registry/builtin-graphs.ts';
export type { GraphEntry } from './registry/graph-entry.ts';
export { buildGraphRegistry, type GraphRegistry } from './registry/graph-registry.ts';
export { type AgentRunner, createAgentRunner, type RunnerOptions } from './runner/agent-runner.ts';
export { isSessionThread, opsThreadOf, sessionOfThread } from './runner/session-threads.ts';
export type { AgentDependencies, AgentSource, AgentUsage } from './types.ts';
export { addUsage } from './usage.ts';
export { isChatSchema, type UserGraphEntry } from './user-graph-run.ts';
export { validateInput } from './validate-input.ts';
