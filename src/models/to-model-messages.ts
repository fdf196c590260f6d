import type { ModelMessage } from 'ai';
import type { ChatMessage } from './types.ts';

/** Converts Yeoul's messages to the AI SDK's message shape. */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  return messages.map(toModelMessage);
}

function toModelMessage(message: ChatMessage): ModelMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: [
          ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
          ...calls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: call.args ?? {},
          })),
        ],
      };
    }
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.toolCallId ?? '',
            toolName: message.name ?? 'tool',
            output: message.isError
              ? { type: 'error-text', value: message.content }
              : { type: 'text', value: message.content },
          },
        ],
      };
  }
}
