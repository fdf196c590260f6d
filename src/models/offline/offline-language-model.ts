import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { promptTokens } from '../prompt-text.ts';
import { countTokens } from '../token-budget.ts';
import { readPrompt } from './read-prompt.ts';
import { type OfflineReply, respond } from './respond.ts';

/**
 * The offline model: a deterministic stand-in for an LLM, so that Yeoul runs and its
 * tests pass with no network and no keys. It is not a language model — it recognises
 * a few kinds of request (arithmetic, date, weather, search, names, summaries, the
 * knowledge base) and answers from rules. It implements the AI SDK's model interface,
 * so it goes through the same code as real providers, streaming included.
 */
export class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'offline';
  readonly modelId: string;
  readonly supportedUrls = {};

  constructor(modelId = 'rules') {
    this.modelId = modelId;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const reply = respond(readPrompt(options));
    const content: LanguageModelV4Content[] = [];
    if (reply.kind === 'tool-call') {
      content.push({
        type: 'tool-call',
        toolCallId: reply.id,
        toolName: reply.name,
        input: JSON.stringify(reply.args),
      });
    } else {
      content.push({ type: 'text', text: replyText(reply) });
    }
    return {
      content,
      finishReason: finishReasonOf(reply),
      usage: usageOf(options, reply),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const reply = respond(readPrompt(options));
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (reply.kind === 'tool-call') {
      const input = JSON.stringify(reply.args);
      parts.push(
        { type: 'tool-input-start', id: reply.id, toolName: reply.name },
        { type: 'tool-input-delta', id: reply.id, delta: input },
        { type: 'tool-input-end', id: reply.id },
        { type: 'tool-call', toolCallId: reply.id, toolName: reply.name, input },
      );
    } else {
      parts.push({ type: 'text-start', id: 'text-0' });
      for (const delta of chunksOf(replyText(reply)))
        parts.push({ type: 'text-delta', id: 'text-0', delta });
      parts.push({ type: 'text-end', id: 'text-0' });
    }
    parts.push({
      type: 'finish',
      finishReason: finishReasonOf(reply),
      usage: usageOf(options, reply),
    });
    const signal = options.abortSignal;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    return { stream };
  }
}

function replyText(reply: OfflineReply): string {
  if (reply.kind === 'object') return JSON.stringify(reply.object);
  return reply.kind === 'text' ? reply.text : '';
}

/** Splits an answer into small pieces (a word or two), as a real model streams tokens. */
function chunksOf(text: string): string[] {
  return (
    text.match(/\S+\s*|\s+/g)?.reduce<string[]>((chunks, word, index) => {
      if (index % 2 === 0) chunks.push(word);
      else chunks[chunks.length - 1] += word;
      return chunks;
    }, []) ?? [text]
  );
}

function finishReasonOf(reply: OfflineReply): LanguageModelV4FinishReason {
  return reply.kind === 'tool-call'
    ? { unified: 'tool-calls', raw: 'tool_calls' }
    : { unified: 'stop', raw: 'stop' };
}

function usageOf(options: LanguageModelV4CallOptions, reply: OfflineReply): LanguageModelV4Usage {
  const input = promptTokens(options);
  const output = countTokens(
    reply.kind === 'tool-call' ? JSON.stringify(reply.args) : replyText(reply),
  );
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
