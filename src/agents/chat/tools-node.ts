import type { NodeContext } from '../../graph/index.ts';
import { ToolExecutor } from '../../tools/index.ts';
import type { AgentDependencies, ChatMessage } from '../types.ts';

/** What the tools node reads. */
interface ToolsState {
  messages: ChatMessage[];
  toolCalls: number;
  toolsUsed: string[];
}

/** Tool executions allowed per request (T10). */
export const maxToolCallsPerRequest = 5;

/**
 * The tools node: runs the tool calls of the last assistant message (no LLM), appending
 * one tool message per call — failures included, as error results the model sees — and
 * streaming `tool-call` / `tool-result` events. The per-request limit spans the whole run.
 */
export function createToolsNode(deps: AgentDependencies) {
  return async (state: ToolsState, context: NodeContext) => {
    const calls = state.messages.at(-1)?.toolCalls ?? [];
    const executor = new ToolExecutor(deps.tools, {
      env: deps.toolEnvironment,
      maxCalls: Math.max(0, maxToolCallsPerRequest - state.toolCalls),
      signal: context.signal,
    });
    const results: ChatMessage[] = [];
    for (const call of calls) {
      context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
      const result = await executor.execute(call);
      context.emit('tool-result', {
        id: call.id,
        name: call.name,
        result: result.content,
        ...(result.isError ? { error: true } : {}),
      });
      results.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: result.content,
        isError: result.isError,
      });
    }
    return {
      messages: results,
      toolCalls: state.toolCalls + calls.length,
      toolsUsed: [...state.toolsUsed, ...calls.map((call) => call.name)],
    };
  };
}
