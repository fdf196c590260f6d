import type { LanguageModelV4CallOptions, LanguageModelV4Message } from '@ai-sdk/provider';
import { countTokens } from './token-budget.ts';

/** The words of one prompt message (text, tool calls and results), without its JSON framing. */
function messageText(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool-call') return `${part.toolName} ${JSON.stringify(part.input)}`;
      if (part.type === 'tool-result') return JSON.stringify(part.output);
      return '';
    })
    .join('\n');
}

/**
 * Tokens in the words of an AI SDK prompt, message by message: the system prompt and
 * earlier turns come back on every call, and countTokens remembers recent texts.
 */
export function promptTokens(options: LanguageModelV4CallOptions): number {
  let total = 0;
  for (const message of options.prompt) total += countTokens(messageText(message));
  return total;
}
