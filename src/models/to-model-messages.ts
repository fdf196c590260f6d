import type { ModelMessage } from 'ai';
import type { ChatMessage } from './types.ts';

/** Converts Yeoul's messages to the AI SDK's message shape; a message a guardrail blocked is left out. */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const sent: ModelMessage[] = [];
  for (const message of messages) if (message.blocked !== true) sent.push(toModelMessage(message));
  return sent;
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
