import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** The words of an AI SDK prompt (system, messages, tool calls and results), without its JSON framing. */
export function promptText(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .map((message) => {
      if (message.role === 'system') return message.content;
      return message.content
        .map((part) => {
          if (part.type === 'text') return part.text;
          if (part.type === 'tool-call') return `${part.toolName} ${JSON.stringify(part.input)}`;
          if (part.type === 'tool-result') return JSON.stringify(part.output);
          return '';
        })
        .join('\n');
    })
    .join('\n');
}
