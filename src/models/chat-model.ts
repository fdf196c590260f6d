import {
  generateText,
  jsonSchema,
  type LanguageModel,
  Output,
  experimental_streamLanguageModelCall as streamLanguageModelCall,
  type ToolSet,
  tool,
} from 'ai';
import { z } from 'zod';
import { inSpan, type Span, SpanKind } from '../core/index.ts';
import { callThroughChain } from './call-through-chain.ts';
import { ModelChain, type ModelChoice } from './model-chain.ts';
import { ModelHealth } from './model-health.ts';
import { describeModelRequest, describeModelResult } from './model-span.ts';
import { toModelMessages } from './to-model-messages.ts';
import { type BudgetedPrompt, countTokens, fitToBudget } from './token-budget.ts';
import type {
  ModelCallOptions,
  ModelCallResult,
  ModelInfo,
  ModelSettings,
  ModelTool,
  ModelUsage,
  ToolCall,
} from './types.ts';

/** The limits a model runs under unless configured otherwise. */
export const defaultModelSettings: ModelSettings = {
  maxInputTokens: 4000,
  maxOutputTokens: 2000,
  timeoutMs: 60_000,
  maxAttempts: 3,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 20_000,
};

/**
 * The SDK's telemetry hooks stay off: Yeoul counts calls, tokens and failures itself
 * (`/metrics`), and the SDK would otherwise copy and redact every call's events for
 * integrations nobody registered — about a tenth of a plain call's cost.
 */
const telemetry = { isEnabled: false } as const;

/** The models a ChatModel falls back to, after its own, and how long a failed one is skipped. */
export interface FallbackOptions {
  fallbacks?: readonly ModelChoice[];
  /** How long a model whose call moved on is skipped, in ms (0: never; default 30 000). */
  cooldownMs?: number;
}

/**
 * One model (or a chain of them: a primary and its fallbacks) behind Yeoul's limits: every
 * call fits the input token budget, caps the output, times out, retries transient failures
 * (never after text has streamed), and reports usage. In a chain, each call goes to the
 * first model not cooling down; a failure other than a refused request (400) moves it on at
 * once to the next model (a model with a next one is tried once), unless text has streamed;
 * the last model keeps the retries. Tool calls come back to the caller; the graph executes them.
 */
export class ChatModel {
  /** The primary model's provider and id. */
  readonly info: ModelInfo;
  readonly settings: ModelSettings;
  /** The primary model. */
  readonly languageModel: LanguageModel;
  /** The models calls go to, in order, with each one's health and cool-down. */
  readonly chain: ModelChain;
  /**
   * Every model's failures (each one told to the listeners, with the model a call moved on
   * to), the latest answer, and whether the latest call found no model that answered.
   */
  readonly health = new ModelHealth();

  constructor(
    languageModel: LanguageModel,
    info: ModelInfo,
    settings: Partial<ModelSettings> = {},
    fallback: FallbackOptions = {},
  ) {
    this.languageModel = languageModel;
    this.info = info;
    this.settings = { ...defaultModelSettings, ...settings };
    this.chain = new ModelChain(
      [{ languageModel, info }, ...(fallback.fallbacks ?? [])],
      fallback.cooldownMs,
    );
  }

  /**
   * One answer (text and/or tool calls). With `onTextDelta` it is streamed and the text
   * handed over as it arrives; without, it is one plain call.
   */
  call(options: ModelCallOptions): Promise<ModelCallResult> {
    // A span per call (GenAI semantic conventions), attempts and retries inside it.
    return inSpan(`chat ${this.info.modelId}`, SpanKind.CLIENT, (span) =>
      this.#call(options, span),
    );
  }

  async #call(options: ModelCallOptions, span: Span): Promise<ModelCallResult> {
    const budget = fitToBudget({ ...options, maxInputTokens: this.settings.maxInputTokens });
    const request = { ...this.#request(options, budget), ...withTools(toToolSet(options.tools)) };
    describeModelRequest(span, {
      info: this.info,
      maxOutputTokens: request.maxOutputTokens,
      temperature: options.temperature,
      system: options.system,
      messages: budget.messages,
      streamed: options.onTextDelta !== undefined,
      outputType: 'text',
      traceContent: options.traceContent,
    });
    const { value, attempts, model } = await callThroughChain(
      this,
      options.signal,
      async (signal, state, languageModel) => {
        // Nobody reading tokens: one non-streaming call, about five times cheaper in the SDK.
        if (options.onTextDelta === undefined) {
          const result = await generateText({
            ...request,
            model: languageModel,
            maxRetries: 0,
            telemetry,
            abortSignal: signal,
          });
          const toolCalls: ToolCall[] = result.content.flatMap((part) =>
            part.type === 'tool-call' || part.type === 'tool-error'
              ? [{ id: part.toolCallId, name: part.toolName, args: part.input }]
              : [],
          );
          const usage = usageOf(result.usage, () => budget.tokenCount, result.text, toolCalls);
          return { text: result.text, toolCalls, finishReason: result.finishReason, usage };
        }
        // One streamed model call. streamText would run the same call through its step loop
        // and several more stream layers: about 4 ms of CPU per call instead of 1.5 ms.
        const { stream } = await streamLanguageModelCall({
          ...request,
          model: languageModel,
          abortSignal: signal,
        });
        let text = '';
        const toolCalls: ToolCall[] = [];
        let finishReason = 'other';
        let reported: { inputTokens?: number; outputTokens?: number } = {};
        for await (const part of stream) {
          if (part.type === 'text-delta' && part.text.length > 0) {
            state.emitted = true;
            text += part.text;
            options.onTextDelta(part.text);
          } else if (part.type === 'tool-call' || part.type === 'tool-error') {
            // A tool-error here means the input did not parse: the executor reports it to the model.
            toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
          } else if (part.type === 'error') {
            throw part.error;
          } else if (part.type === 'model-call-end') {
            finishReason = part.finishReason;
            reported = part.usage;
          }
        }
        // A stream cut short by the signal is not an answer.
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        const usage = usageOf(reported, () => budget.tokenCount, text, toolCalls);
        return { text, toolCalls, finishReason, usage };
      },
    );
    describeModelResult(span, { ...value, attempts, model, traceContent: options.traceContent });
    return { ...value, attempts, droppedMessages: budget.dropped };
  }

  /** Asks for an object of `schema` (router decisions, judge verdicts) through structured output. */
  generateObject<T>(
    schema: z.ZodType<T>,
    options: Omit<ModelCallOptions, 'tools' | 'onTextDelta'>,
  ): Promise<{ object: T; usage: ModelUsage; attempts: number }> {
    return inSpan(`chat ${this.info.modelId}`, SpanKind.CLIENT, (span) =>
      this.#generateObject(schema, options, span),
    );
  }

  async #generateObject<T>(
    schema: z.ZodType<T>,
    options: Omit<ModelCallOptions, 'tools' | 'onTextDelta'>,
    span: Span,
  ): Promise<{ object: T; usage: ModelUsage; attempts: number }> {
    // The schema is stated in the prompt too: OpenAI-compatible servers (vLLM, LM Studio,
    // llama.cpp) are sent only `json_object`, and would not otherwise know which object.
    const stated = { ...options, system: withSchemaInstruction(options.system, schema) };
    const budget = fitToBudget({ ...stated, maxInputTokens: this.settings.maxInputTokens });
    const request = this.#request(stated, budget);
    describeModelRequest(span, {
      info: this.info,
      maxOutputTokens: request.maxOutputTokens,
      temperature: options.temperature,
      system: stated.system,
      messages: budget.messages,
      streamed: false,
      outputType: 'json',
    });
    const { value, attempts, model } = await callThroughChain(
      this,
      options.signal,
      async (signal, _state, languageModel) => {
        const result = await generateText({
          ...request,
          model: languageModel,
          output: Output.object({ schema }),
          maxRetries: 0,
          telemetry,
          abortSignal: signal,
        });
        const object = result.output as T;
        return {
          object,
          usage: usageOf(result.usage, () => budget.tokenCount, JSON.stringify(object), []),
          finishReason: result.finishReason,
        };
      },
    );
    const { finishReason, ...outcome } = value;
    describeModelResult(span, {
      text: JSON.stringify(outcome.object),
      toolCalls: [],
      finishReason,
      usage: outcome.usage,
      attempts,
      model,
    });
    return { ...outcome, attempts };
  }

  /** What every call sends: the model, the budgeted prompt and the output limits. */
  #request(
    options: Pick<ModelCallOptions, 'system' | 'temperature' | 'maxOutputTokens'>,
    budget: BudgetedPrompt,
  ) {
    return {
      ...(options.system ? { system: options.system } : {}),
      messages: toModelMessages(budget.messages),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      maxOutputTokens: Math.min(
        options.maxOutputTokens ?? this.settings.maxOutputTokens,
        this.settings.maxOutputTokens,
      ),
    };
  }
}

const schemaTexts = new WeakMap<object, string>();

/**
 * The system prompt with the JSON Schema the answer must follow, so that a model without
 * native structured output (sent `response_format: json_object`) can still follow it.
 */
function withSchemaInstruction(system: string | undefined, schema: z.ZodType): string {
  let text = schemaTexts.get(schema);
  if (text === undefined) {
    const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
    text = [
      'Answer with one JSON object and nothing else (no prose, no code fences) that follows this JSON Schema.',
      '다른 설명 없이 아래 JSON 스키마를 따르는 JSON 객체 하나로만 답하세요.',
      JSON.stringify(jsonSchema),
    ].join('\n');
    schemaTexts.set(schema, text);
  }
  return system ? `${system}\n\n${text}` : text;
}

function withTools(tools: ToolSet | undefined): { tools?: ToolSet } {
  return tools ? { tools } : {};
}

/**
 * The AI SDK's tool for each tool description: the registry hands out the same description
 * objects until its tools change, while the list around them is new on every call (a run's
 * client tools join it), so each tool is built once and only the set per call.
 */
const sdkTools = new WeakMap<ModelTool, ToolSet[string]>();

function toToolSet(tools: ModelTool[] | undefined): ToolSet | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  const set: ToolSet = {};
  for (const definition of tools) {
    let built = sdkTools.get(definition);
    if (built === undefined) {
      built = tool({
        description: definition.description,
        inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
      });
      sdkTools.set(definition, built);
    }
    set[definition.name] = built;
  }
  return set;
}

function usageOf(
  reported: { inputTokens?: number | undefined; outputTokens?: number | undefined },
  estimatedInput: () => number,
  text: string,
  toolCalls: ToolCall[],
): ModelUsage {
  const estimated = reported.inputTokens === undefined || reported.outputTokens === undefined;
  return {
    inputTokens: reported.inputTokens ?? estimatedInput(),
    outputTokens:
      reported.outputTokens ??
      countTokens(text) +
        toolCalls.reduce((sum, call) => sum + countTokens(JSON.stringify(call.args ?? {})), 0),
    estimated,
  };
}
