import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ToolSchemas } from './named-tool.ts';

/** A conversation turn as the offline model reads it. */
export interface PromptTurn {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  toolCalls: Array<{ id: string; name: string; args: unknown }>;
  toolResults: Array<{ id: string; name: string; text: string; isError: boolean }>;
}

/** A prompt flattened to what the offline model looks at. */
export interface ReadPrompt {
  system: string;
  turns: PromptTurn[];
  toolNames: Set<string>;
  /** The input schema of each tool offered, by name. */
  toolSchemas: ToolSchemas;
  /** The JSON Schema asked for when the caller wants structured output. */
  jsonSchema: Record<string, unknown> | undefined;
  wantsJson: boolean;
}

/** Reads an AI SDK call's prompt, tools and response format. */
export function readPrompt(options: LanguageModelV4CallOptions): ReadPrompt {
  const systemParts: string[] = [];
  const turns: PromptTurn[] = [];
  for (const message of options.prompt) {
    if (message.role === 'system') {
      systemParts.push(message.content);
      continue;
    }
    const turn: PromptTurn = { role: message.role, text: '', toolCalls: [], toolResults: [] };
    for (const part of message.content) {
      if (part.type === 'text') turn.text += part.text;
      else if (part.type === 'tool-call') {
        turn.toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
      } else if (part.type === 'tool-result') {
        turn.toolResults.push({
          id: part.toolCallId,
          name: part.toolName,
          text: outputText(part.output),
          isError: part.output.type === 'error-text' || part.output.type === 'error-json',
        });
      }
    }
    turns.push(turn);
  }
  const format = options.responseFormat;
  const toolSchemas: ToolSchemas = new Map();
  for (const tool of options.tools ?? []) {
    if (tool.type === 'function') {
      toolSchemas.set(tool.name, tool.inputSchema as Record<string, unknown>);
    }
  }
  return {
    system: systemParts.join('\n\n'),
    turns,
    toolNames: new Set(toolSchemas.keys()),
    toolSchemas,
    jsonSchema:
      format?.type === 'json' ? (format.schema as Record<string, unknown> | undefined) : undefined,
    wantsJson: format?.type === 'json',
  };
}

function outputText(output: { type: string; value?: unknown; reason?: string }): string {
  if (output.type === 'text' || output.type === 'error-text') return String(output.value ?? '');
  if (output.type === 'execution-denied') return `denied: ${output.reason ?? 'not approved'}`;
  return JSON.stringify(output.value ?? '');
}
