import type { NodeContext } from '../graph/index.ts';
import { forOwner, type OwnerMemory } from '../memory-store/index.ts';
import type { ChatModel } from '../models/index.ts';
import type { ToolEnvironment, ToolRegistry } from '../tools/index.ts';
import { createAgentNode } from './chat/agent-node.ts';
import { chatState } from './chat/chat-state.ts';
import { createRagNode } from './chat/rag-node.ts';
import { createRouterNode } from './chat/router-node.ts';
import { createToolsNode } from './chat/tools-node.ts';
import { createMemoryNode } from './memory/memory-node.ts';
import { evaluateAnswer } from './ops/evaluation.ts';
import type { AgentDependencies } from './types.ts';

/** What a user graph may log through (Yeoul's pino logger, or a quiet one). */
export interface KitLogger {
  debug(object: object | string, message?: string): void;
  info(object: object | string, message?: string): void;
  warn(object: object | string, message?: string): void;
  error(object: object | string, message?: string): void;
}

/**
 * What Yeoul hands a config file's graph factory (`graphs: {NAME: (kit) => graph}`): the
 * model, the tools (with their limits, permissions and approvals), the knowledge base and
 * the logger, and the built-in chat agent's nodes to reuse on a state built from
 * `kit.chatState` (router, rag, memory, agent, tools) plus the ops agent's evaluation.
 * @example
 * graphs: {
 *   support: (kit) => new StateGraph(kit.chatState)
 *     .addNode('agent', kit.nodes.agent).addNode('tools', kit.nodes.tools)
 *     .addEdge(START, 'agent')
 *     .addConditionalEdges('agent', (s) => (s.messages.at(-1)?.toolCalls?.length ? 'tools' : END), ['tools', END])
 *     .addEdge('tools', 'agent'),
 * }
 */
export interface GraphKit {
  /** The chat agent's model: `model.call({system, messages, tools?, signal})`. */
  model: ChatModel;
  /** The tools the chat agent is offered (built-in, MCP and the config's own). */
  tools: ToolRegistry;
  toolEnvironment: ToolEnvironment;
  /** The knowledge base: `knowledge.search(query, {k})` → passages, best first. */
  knowledge: AgentDependencies['knowledge'];
  logger: KitLogger;
  /** Everything the built-in nodes run on, for building nodes of your own with the same wiring. */
  deps: AgentDependencies;
  /** The built-in chat agent's state (messages, summary, context, usage, …), to build on. */
  chatState: typeof chatState;
  /** The built-in chat agent's nodes, for a graph whose state is (or extends) `chatState`. */
  nodes: {
    router: ReturnType<typeof createRouterNode>;
    rag: ReturnType<typeof createRagNode>;
    memory: ReturnType<typeof createMemoryNode>;
    agent: ReturnType<typeof createAgentNode>;
    tools: ReturnType<typeof createToolsNode>;
  };
  /** The ops agent's evaluation: checks an answer against tool results and context. */
  evaluate: typeof evaluateAnswer;
  /**
   * The long-term memory of the person a run serves (the request's owner: its API key, or
   * the anonymous owner), from a node's context: `kit.memoryOf(context)?.get('profile', 'name')`.
   * Undefined when the run has no owner (stateless `/v1`, evaluations), the request turned
   * long-term memory off, or `YEOUL_LONG_TERM_MEMORY=off`.
   */
  memoryOf(context: NodeContext): OwnerMemory | undefined;
}

/** The kit of a user graph, over the chat agent's dependencies. */
export function createGraphKit(deps: AgentDependencies, logger: KitLogger): GraphKit {
  return {
    model: deps.model,
    tools: deps.tools,
    toolEnvironment: deps.toolEnvironment,
    knowledge: deps.knowledge,
    logger,
    deps,
    chatState,
    nodes: {
      router: createRouterNode(deps),
      rag: createRagNode(deps),
      memory: createMemoryNode(deps),
      agent: createAgentNode(deps),
      tools: createToolsNode(deps),
    },
    evaluate: evaluateAnswer,
    memoryOf(context) {
      const owner = (context.context as { memoryOwner?: unknown } | undefined)?.memoryOwner;
      const store = deps.longTermMemory;
      return store && typeof owner === 'string' ? forOwner(store, owner) : undefined;
    },
  };
}
