/** A tool call as the model asked for it. `args` is the parsed JSON object (or raw text when unparseable). */
export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
}

/**
 * A conversation message in Yeoul's own shape (what graph state stores). A `tool`
 * message answers the assistant tool call with id `toolCallId`.
 */
export interface ChatMessage {
  id?: string;
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  /** The tool's name, on `tool` messages. */
  name?: string;
  /** True on a `tool` message whose content is an error the model should see. */
  isError?: boolean;
  /** A message a guardrail blocked (and its refusal): kept and shown, never sent to a model. */
  blocked?: boolean;
  /** An answer cut off when a newer message stopped its run: the text it had streamed. */
  interrupted?: boolean;
}

/** A tool as the model is told about it. */
export interface ModelTool {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: Record<string, unknown>;
}

/** Tokens one call used; `estimated` when the provider did not report them and they were counted here. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
}

/** Limits every model call runs under. */
export interface ModelSettings {
  /** Largest input (system prompt + messages), in tokens (default 4000). */
  maxInputTokens: number;
  /** Largest output, in tokens (default 2000). */
  maxOutputTokens: number;
  /** Time allowed for one attempt, in ms (default 60 000). */
  timeoutMs: number;
  /** Attempts for transient failures, the first included (default 3). */
  maxAttempts: number;
  /** First backoff delay in ms, doubled each retry (default 500). */
  retryBaseDelayMs: number;
  /** Longest wait between attempts, Retry-After included (default 20 000). */
  retryMaxDelayMs: number;
}

/** One model call. */
export interface ModelCallOptions {
  system?: string;
  messages: ChatMessage[];
  tools?: ModelTool[];
  temperature?: number;
  /** Caps this call's output below the model's `maxOutputTokens` (never above it). */
  maxOutputTokens?: number;
  signal?: AbortSignal;
  /** Receives the answer's text as it streams. */
  onTextDelta?: (text: string) => void;
  /**
   * False: the call's span carries no prompt or answer even with `YEOUL_TRACE_CONTENT=1`
   * (a guarded run's answer is traced before its output guardrails ran).
   */
  traceContent?: boolean;
}

/** What a model call produced. */
export interface ModelCallResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: ModelUsage;
  /** Attempts it took (1 when the first one worked). */
  attempts: number;
  /** Messages dropped from the front of the history to fit the input budget. */
  droppedMessages: number;
}

/** The providers `YEOUL_MODEL` may name. */
export type ProviderName =
  | 'openai'
  | 'anthropic'
  | 'ollama'
  | 'compat'
  | 'bedrock'
  | 'google'
  | 'azure'
  | 'offline';

/**
 * Which model a ChatModel talks to: a provider `YEOUL_MODEL` names, or the provider an AI
 * SDK model object reports (a config file's `model`, e.g. `amazon-bedrock`).
 */
export interface ModelInfo {
  provider: string;
  modelId: string;
}
