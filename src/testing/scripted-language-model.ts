import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { countTokens, promptTokens } from '../models/index.ts';

/** One scripted reply: text, tool calls, a structured object, or a thrown error. */
export type ScriptedReply =
  | { text: string }
  | { toolCalls: Array<{ name: string; args: Record<string, unknown> }> }
  | { object: unknown }
  | { error: Error };

/** A scripted model and the prompts it was called with. */
export interface ScriptedLanguageModel extends LanguageModelV4 {
  calls: LanguageModelV4CallOptions[];
}

/**
 * An AI SDK model that answers from a script, in order (the last reply repeats), or from
 * a function of the call. It streams like a real provider and reports usage counted
 * with the same tokenizer as the token budget, for agent tests and the agent benchmark.
 */
export function scriptedLanguageModel(
  script: ScriptedReply[] | ((options: LanguageModelV4CallOptions, index: number) => ScriptedReply),
): ScriptedLanguageModel {
  const calls: LanguageModelV4CallOptions[] = [];
  const next = (options: LanguageModelV4CallOptions): ScriptedReply => {
    const index = calls.push(options) - 1;
    if (typeof script === 'function') return script(options, index);
    return script[Math.min(index, script.length - 1)] as ScriptedReply;
  };
  const usageOf = (options: LanguageModelV4CallOptions, output: string) => {
    const input = promptTokens(options);
    const produced = countTokens(output);
    return {
      inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: produced, text: produced, reasoning: undefined },
    };
  };
  return {
    specificationVersion: 'v4',
    provider: 'scripted',
    modelId: 'script',
    supportedUrls: {},
    calls,
    async doGenerate(options): Promise<LanguageModelV4GenerateResult> {
      const reply = next(options);
      if ('error' in reply) throw reply.error;
      const text =
        'object' in reply ? JSON.stringify(reply.object) : 'text' in reply ? reply.text : '';
      const content =
        'toolCalls' in reply
          ? reply.toolCalls.map((call, index) => ({
              type: 'tool-call' as const,
              toolCallId: `scripted-${calls.length}-${index}`,
              toolName: call.name,
              input: JSON.stringify(call.args),
            }))
          : [{ type: 'text' as const, text }];
      return {
        content,
        finishReason: { unified: 'toolCalls' in reply ? 'tool-calls' : 'stop', raw: undefined },
        usage: usageOf(options, text),
        warnings: [],
      };
    },
    async doStream(options): Promise<LanguageModelV4StreamResult> {
      const reply = next(options);
      if ('error' in reply) throw reply.error;
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      let output = '';
      if ('toolCalls' in reply) {
        reply.toolCalls.forEach((call, index) => {
          const input = JSON.stringify(call.args);
          output += input;
          parts.push({
            type: 'tool-call',
            toolCallId: `scripted-${calls.length}-${index}`,
            toolName: call.name,
            input,
          });
        });
      } else {
        output = 'object' in reply ? JSON.stringify(reply.object) : reply.text;
        parts.push({ type: 'text-start', id: 't' });
        for (const piece of output.match(/\S+\s*|\s+/g) ?? [])
          parts.push({ type: 'text-delta', id: 't', delta: piece });
        parts.push({ type: 'text-end', id: 't' });
      }
      parts.push({
        type: 'finish',
        finishReason: { unified: 'toolCalls' in reply ? 'tool-calls' : 'stop', raw: undefined },
        usage: usageOf(options, output),
      });
      return {
        stream: new ReadableStream({
          pull(controller) {
            const part = parts.shift();
            if (part === undefined) controller.close();
            else controller.enqueue(part);
          },
        }),
      };
    },
  };
}
