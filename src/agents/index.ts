export {
  type AgentRequest,
  type AgentRequestOptions,
  type AgentResponse,
  type ApprovalDecision,
  type ApprovalInterrupt,
  approvalOf,
  type RunOutcome,
} from './agent-payload.ts';
export { createAgentNode } from './chat/agent-node.ts';
export { buildChatGraph } from './chat/build-chat-graph.ts';
export { type ChatState, chatRunInput, chatState, zeroUsage } from './chat/chat-state.ts';
export { decideRoute, type RouteDecision, termCoverage } from './chat/decide-route.ts';
export { createRagNode } from './chat/rag-node.ts';
export { createRouterNode } from './chat/router-node.ts';
export { createToolsNode } from './chat/tools-node.ts';
export { closeDanglingToolCalls } from './close-tool-calls.ts';
export { UnknownGraphError } from './errors/unknown-graph-error.ts';
export { createGraphKit, type GraphKit, type KitLogger } from './graph-kit.ts';
export {
  profileBlock,
  profileNamespace,
  readProfileBlock,
  rememberProfileFacts,
} from './memory/long-term-profile.ts';
export { createMemoryNode } from './memory/memory-node.ts';
export { defaultMemorySettings, type MemorySettings } from './memory/memory-settings.ts';
export { planSummary, type SummaryPlan, transcriptOf } from './memory/plan-summary.ts';
export {
  mayStateProfileFact,
  type ProfileFact,
  profileExtractorPrompt,
  ruleProfileFacts,
} from './memory/profile-facts.ts';
export {
  addSummaryToWindow,
  formatSummaryForPrompt,
  summarySeparator,
} from './memory/summary-window.ts';
export {
  buildOpsGraph,
  type OpsDependencies,
  type OpsRunContext,
  opsRunInput,
} from './ops/build-ops-graph.ts';
export {
  blockPrefix,
  buildRetryPrompt,
  decideVerdict,
  defaultFeedback,
  type FinalStatus,
  finalizeAnswer,
  type Verdict,
} from './ops/decide.ts';
export { answerFormCheck, evaluateAnswer } from './ops/evaluation.ts';
export type {
  AssessedCheck,
  CheckResult,
  Evaluation,
  EvaluationInput,
  Finding,
} from './ops/evaluation-types.ts';
export { assessGrounding, groundingCheck } from './ops/grounding-check.ts';
export { judgeCheck, judgeSchema } from './ops/judge-check.ts';
export { knowledgeCheck } from './ops/knowledge-check.ts';
export {
  type InnerAgent,
  type InnerAgentInput,
  type InnerAgentResult,
  type OpsState,
  opsState,
} from './ops/ops-state.ts';
export { numberOfWord, numbersIn, quantitiesIn, withoutReferences } from './ops/read-numbers.ts';
export { deniesFindings, type StatedCount, statedCounts } from './ops/stated-counts.ts';
export { readToolFacts, type ToolFacts } from './ops/tool-facts.ts';
export { agentSystemPrompt, defaultPersona, routerPrompt, summarizerPrompt } from './prompts.ts';
export { buildReactGraph, reactRunInput } from './react/build-react-graph.ts';
export { type ReactState, reactState, type ToolExecutionResult } from './react/react-state.ts';
export {
  type BuiltinGraphName,
  builtinGraphNames,
  defaultGraphName,
  evaluationGraphName,
  graphNameOf,
  isBuiltinGraph,
} from './registry/builtin-graphs.ts';
export type { GraphEntry, Handoff } from './registry/graph-entry.ts';
export {
  buildGraphRegistry,
  type GraphRegistry,
  type RegistryOptions,
} from './registry/graph-registry.ts';
export {
  maxToolCallsPerRequest,
  type ToolApprovalRequest,
  type ToolDecision,
} from './run-tool-calls.ts';
export { type AgentRunner, createAgentRunner, type RunnerOptions } from './runner/agent-runner.ts';
export { isSessionThread, opsThreadOf, sessionOfThread } from './runner/session-threads.ts';
export type {
  AgentDependencies,
  AgentError,
  AgentOptions,
  AgentSource,
  AgentUsage,
} from './types.ts';
export { addUsage } from './usage.ts';
export {
  isChatSchema,
  type UserGraphEntry,
  userChatInput,
} from './user-graph-run.ts';
export { validateInput } from './validate-input.ts';
