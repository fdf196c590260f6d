import { type CompileOptions, END, START, StateGraph } from '../../graph/index.ts';
import { closeDanglingToolCalls, closeRunMessages } from '../close-tool-calls.ts';
import { createMemoryNode } from '../memory/memory-node.ts';
import { isKorean, tooComplexAnswer } from '../prompts.ts';
import type { AgentDependencies } from '../types.ts';
import { createAgentNode } from './agent-node.ts';
import { type ChatState, chatState } from './chat-state.ts';
import { createRagNode } from './rag-node.ts';
import { createRouterNode } from './router-node.ts';
import { createToolsNode } from './tools-node.ts';

/**
 * The chat agent: router → (rag →) memory → agent ⇄ tools → END, with
 * a `limit` node that answers "request too complex" when the LLM ⇄ tool loop reaches the
 * request's `maxIterations`.
 */
export function buildChatGraph(deps: AgentDependencies, options: CompileOptions = {}) {
  const routeAfterAgent = (state: ChatState) => {
    const last = state.messages.at(-1);
    if (state.error !== null || (last?.toolCalls?.length ?? 0) === 0) return END;
    return state.iterations >= state.options.maxIterations ? 'limit' : 'tools';
  };
  return new StateGraph(chatState)
    .addNode('router', createRouterNode(deps))
    .addNode('rag', createRagNode(deps))
    .addNode('memory', createMemoryNode(deps))
    .addNode('agent', createAgentNode(deps))
    .addNode('tools', createToolsNode(deps))
    .addNode('limit', (state) => {
      const question =
        [...state.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      return {
        messages: [
          ...closeDanglingToolCalls(
            state.messages,
            'the request reached its limit of LLM ⇄ tool rounds',
          ),
          {
            role: 'assistant' as const,
            content: tooComplexAnswer(isKorean(question), state.options.maxIterations),
          },
        ],
        error: {
          code: 'request_too_complex',
          message: `no answer after ${state.options.maxIterations} LLM ⇄ tool rounds`,
        },
      };
    })
    .addEdge(START, 'router')
    .addConditionalEdges('router', (state) => (state.route === 'rag' ? 'rag' : 'memory'), [
      'rag',
      'memory',
    ])
    .addEdge('rag', 'memory')
    .addEdge('memory', 'agent')
    .addConditionalEdges('agent', routeAfterAgent, ['tools', 'limit', END])
    .addEdge('tools', 'agent')
    .addEdge('limit', END)
    .compile({ name: 'chat', maxSteps: 15, closeRun: closeRunMessages, ...options });
}
