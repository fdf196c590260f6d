import { interrupt, type NodeContext } from '../../graph/index.ts';
import { openToolTurn, runToolCalls } from '../run-tool-calls.ts';
import type { AgentDependencies, ChatMessage } from '../types.ts';

/** What the tools node reads. */
interface ToolsState {
  messages: ChatMessage[];
  toolCalls: number;
  toolsUsed: string[];
}

/**
 * The tools node: runs the tool calls of the last assistant turn (no LLM), appending one
 * tool message per call — failures included, as error results the model sees — and
 * streaming `tool-call` / `tool-result` events. Calls that need approval pause the run
 * (after the others ran); resumed, it runs or refuses them as decided. The per-request
 * limit spans the whole run.
 */
export function createToolsNode(deps: AgentDependencies) {
  return async (state: ToolsState, context: NodeContext) => {
    const { calls, done } = openToolTurn(state.messages);
    const outcome = await runToolCalls(deps, calls, state.toolCalls, context, done);
    const update = {
      messages: outcome.results,
      toolCalls: state.toolCalls + outcome.executed.length,
      toolsUsed: [...state.toolsUsed, ...outcome.executed.map((call) => call.name)],
    };
    return outcome.pending.length > 0 ? interrupt(outcome.pending, update) : update;
  };
}
