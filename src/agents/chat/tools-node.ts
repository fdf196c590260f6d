import type { NodeContext } from '../../graph/index.ts';
import { runToolCalls } from '../run-tool-calls.ts';
import type { AgentDependencies, ChatMessage } from '../types.ts';

/** What the tools node reads. */
interface ToolsState {
  messages: ChatMessage[];
  toolCalls: number;
  toolsUsed: string[];
}

/**
 * The tools node: runs the tool calls of the last assistant message (no LLM), appending
 * one tool message per call — failures included, as error results the model sees — and
 * streaming `tool-call` / `tool-result` events. The per-request limit spans the whole run.
 */
export function createToolsNode(deps: AgentDependencies) {
  return async (state: ToolsState, context: NodeContext) => {
    const calls = state.messages.at(-1)?.toolCalls ?? [];
    const results = await runToolCalls(deps, calls, state.toolCalls, context);
    return {
      messages: results,
      toolCalls: state.toolCalls + calls.length,
      toolsUsed: [...state.toolsUsed, ...calls.map((call) => call.name)],
    };
  };
}
