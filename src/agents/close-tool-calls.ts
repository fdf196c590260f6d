import type { ChatMessage } from './types.ts';

/**
 * Tool results for the calls of the last assistant message that got none (the run
 * stopped first), so that the conversation stays valid for the next model call:
 * providers refuse a tool call without its result.
 */
export function closeDanglingToolCalls(messages: ChatMessage[], reason: string): ChatMessage[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || (last.toolCalls?.length ?? 0) === 0) return [];
  return (last.toolCalls ?? []).map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: `Error: not run (${reason})`,
    isError: true,
  }));
}
