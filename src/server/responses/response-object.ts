import type {
  Response as OpenAiResponse,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import type { AgentResponse, ApprovalInterrupt } from '../../agents/index.ts';

/** The fields of OpenAI's Response that Yeoul fills, with an error code of Yeoul's. */
export type ResponseObject = Pick<
  OpenAiResponse,
  | 'id'
  | 'object'
  | 'created_at'
  | 'model'
  | 'output'
  | 'instructions'
  | 'metadata'
  | 'incomplete_details'
  | 'previous_response_id'
  | 'conversation'
  | 'temperature'
  | 'top_p'
  | 'tool_choice'
  | 'tools'
  | 'parallel_tool_calls'
  | 'max_output_tokens'
  | 'text'
  | 'truncation'
  | 'usage'
  | 'background'
  | 'completed_at'
> & {
  status: 'in_progress' | 'completed' | 'failed' | 'incomplete';
  error: { code: string; message: string } | null;
  /** False when nothing was kept. */
  store: boolean;
  user?: string;
};

/** What a response says of its request, the same before and after its run. */
export interface ResponseFrame {
  id: string;
  createdAt: number;
  model: string;
  instructions: string | null;
  metadata: Record<string, string> | null;
  previousResponseId: string | null;
  /** The session it is a turn of; null when nothing is kept (`store: false`). */
  sessionId: string | null;
  temperature: number | null;
  maxOutputTokens: number | null;
  tools: OpenAiResponse['tools'];
  toolChoice: 'auto' | 'none';
  parallelToolCalls: boolean;
  truncation: 'auto' | 'disabled';
  user: string | undefined;
}

/** The response before its run: `in_progress`, no output. */
export function pendingResponse(frame: ResponseFrame): ResponseObject {
  return {
    id: frame.id,
    object: 'response',
    created_at: frame.createdAt,
    status: 'in_progress',
    background: false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: frame.instructions,
    max_output_tokens: frame.maxOutputTokens,
    metadata: frame.metadata ?? {},
    model: frame.model,
    output: [],
    parallel_tool_calls: frame.parallelToolCalls,
    previous_response_id: frame.previousResponseId,
    conversation: frame.sessionId === null ? null : { id: frame.sessionId },
    store: frame.sessionId !== null,
    temperature: frame.temperature,
    text: { format: { type: 'text' } },
    tool_choice: frame.toolChoice,
    tools: frame.tools,
    top_p: null,
    truncation: frame.truncation,
    usage: usageOf({ llmCalls: 0, inputTokens: 0, outputTokens: 0 }),
    ...(frame.user === undefined ? {} : { user: frame.user }),
  };
}

/**
 * The response of a finished (or paused) run: its answer as a message (`messageId`), or
 * what it waits on — a `function_call` per call of the caller's tools, an
 * `mcp_approval_request` per call waiting for approval; `failed` with the error code when
 * the model failed, `incomplete` (`content_filter`) when a guardrail blocked the turn.
 */
export function finishedResponse(
  frame: ResponseFrame,
  payload: AgentResponse,
  messageId: string,
): ResponseObject {
  const base = pendingResponse(frame);
  const finished = { ...base, usage: usageOf(payload.usage), completed_at: nowSeconds() };
  if (payload.status === 'error') {
    return {
      ...finished,
      status: 'failed',
      error: { code: payload.errorCode ?? 'server_error', message: payload.response },
    };
  }
  if (payload.status === 'interrupted') {
    return {
      ...finished,
      status: 'completed',
      output: (payload.interrupts ?? []).map(waitingItem),
    };
  }
  const output = [answerItem(messageId, payload.response)];
  if (payload.status === 'blocked') {
    return {
      ...finished,
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      output,
    };
  }
  if (payload.status === 'cancelled') return { ...finished, status: 'incomplete', output };
  return { ...finished, status: 'completed', output };
}

/** The assistant's answer as an output message. */
export function answerItem(id: string, text: string): ResponseOutputMessage {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/** A pending call as an output item: a call of the caller's tool, or an approval request. */
export function waitingItem(pending: ApprovalInterrupt): ResponseOutputItem {
  const args = typeof pending.args === 'string' ? pending.args : JSON.stringify(pending.args);
  if (pending.type === 'client-tool') {
    return {
      type: 'function_call',
      id: `fc_${pending.id}`,
      call_id: pending.id,
      name: pending.tool,
      arguments: args,
      status: 'completed',
    };
  }
  return {
    type: 'mcp_approval_request',
    id: pending.id,
    server_label: 'yeoul',
    name: pending.tool,
    arguments: args,
  };
}

/** A run's tokens in the Responses API's terms. */
export function usageOf(usage: AgentResponse['usage']): ResponseUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** Seconds since the epoch. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
