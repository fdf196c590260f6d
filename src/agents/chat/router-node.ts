import type { NodeContext } from '../../graph/index.ts';
import type { AgentDependencies } from '../types.ts';
import { addUsage } from '../usage.ts';
import type { ChatState } from './chat-state.ts';
import { decideRoute } from './decide-route.ts';

/**
 * The chat agent's router node: decides whether the last user message needs the
 * knowledge base (`rag`) or goes straight to the agent, with the reason and any passages it
 * already found. Clear cases are decided without the LLM.
 */
export function createRouterNode(deps: AgentDependencies) {
  return async (state: ChatState, context: NodeContext) => {
    const question = state.messages.at(-1)?.content ?? '';
    const decision = await decideRoute(question, deps, context.signal);
    return {
      route: decision.route,
      routeReason: decision.reason,
      passages: decision.passages,
      usage: addUsage(state.usage, decision.usage, decision.usage.llmCalls),
    };
  };
}
