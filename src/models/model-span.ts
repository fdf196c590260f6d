import { genAi, recordsTraceContent, type Span } from '../core/index.ts';
import type { ChatMessage, ModelInfo, ModelUsage, ToolCall } from './types.ts';

/** What a model call asked for, as the GenAI semantic conventions name it. */
export interface ModelSpanRequest {
  info: ModelInfo;
  /** The output cap actually sent. */
  maxOutputTokens: number;
  temperature: number | undefined;
  system: string | undefined;
  messages: ChatMessage[];
  streamed: boolean;
  /** `json` for structured output (router, judge), `text` otherwise. */
  outputType: 'text' | 'json';
  /** False: no prompt in the span, whatever `YEOUL_TRACE_CONTENT` says. */
  traceContent?: boolean | undefined;
}

/** What a model call produced. */
export interface ModelSpanResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: ModelUsage;
  attempts: number;
  /** The `<provider>:<model id>` that answered (a fallback, when the primary failed). */
  model?: string;
  /** False: no answer in the span, whatever `YEOUL_TRACE_CONTENT` says. */
  traceContent?: boolean | undefined;
}

/** The OpenTelemetry GenAI names of the providers whose name there differs from Yeoul's. */
const semanticProviderNames: Partial<Record<ModelInfo['provider'], string>> = {
  bedrock: 'aws.bedrock',
  google: 'gcp.gemini',
  azure: 'azure.ai.openai',
};

/**
 * Sets a model call's request attributes (gen_ai.operation.name, gen_ai.provider.name and
 * gen_ai.system, gen_ai.request.model, temperature, max_tokens, output type); the prompt
 * itself only when `YEOUL_TRACE_CONTENT=1`.
 */
export function describeModelRequest(span: Span, request: ModelSpanRequest): void {
  if (!span.isRecording()) return;
  span.setAttributes({
    [genAi.operationName]: 'chat',
    [genAi.providerName]: semanticProviderNames[request.info.provider] ?? request.info.provider,
    [genAi.system]: semanticProviderNames[request.info.provider] ?? request.info.provider,
    [genAi.requestModel]: request.info.modelId,
    [genAi.requestMaxTokens]: request.maxOutputTokens,
    [genAi.outputType]: request.outputType,
    'yeoul.model.streamed': request.streamed,
    ...(request.temperature === undefined
      ? {}
      : { [genAi.requestTemperature]: request.temperature }),
  });
  if (request.traceContent === false || !recordsTraceContent()) return;
  if (request.system) {
    span.setAttribute(
      genAi.systemInstructions,
      JSON.stringify([{ type: 'text', content: request.system }]),
    );
  }
  span.setAttribute(genAi.inputMessages, JSON.stringify(request.messages.map(messageParts)));
}

/** Sets a model call's outcome: finish reason, token usage, attempts, the model that answered; the answer only with content recording. */
export function describeModelResult(span: Span, result: ModelSpanResult): void {
  if (!span.isRecording()) return;
  span.setAttributes({
    [genAi.responseFinishReasons]: [result.finishReason],
    [genAi.inputTokens]: result.usage.inputTokens,
    [genAi.outputTokens]: result.usage.outputTokens,
    'yeoul.model.usage_estimated': result.usage.estimated,
    'yeoul.model.attempts': result.attempts,
    ...(result.model === undefined ? {} : { 'yeoul.model.answered_by': result.model }),
  });
  if (result.traceContent === false || !recordsTraceContent()) return;
  const output = messageParts({
    role: 'assistant',
    content: result.text,
    ...(result.toolCalls.length > 0 ? { toolCalls: result.toolCalls } : {}),
  });
  span.setAttribute(
    genAi.outputMessages,
    JSON.stringify([{ ...output, finish_reason: result.finishReason }]),
  );
}

/** A message in the semantic conventions' shape: a role and its parts. */
function messageParts(message: ChatMessage) {
  const parts: Array<Record<string, unknown>> = [];
  if (message.role === 'tool') {
    parts.push({ type: 'tool_call_response', id: message.toolCallId, response: message.content });
  } else if (message.content) {
    parts.push({ type: 'text', content: message.content });
  }
  for (const call of message.toolCalls ?? []) {
    parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.args });
  }
  return { role: message.role, parts };
}
