import { z } from 'zod';
import type { AgentResponse } from '../../agents/index.ts';
import {
  guardrailBlockSchema,
  guardrailRecordSchema,
  interruptSchema,
  runStatusSchema,
} from '../../protocol/index.ts';
import { v1ModelOf } from './chat-completion-request.ts';

const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

/** Yeoul's extension of a completion: what OpenAI's shape has no room for. */
const yeoulSchema = z.object({
  sessionId: z
    .string()
    .nullable()
    .describe('the session (x-session-id, or the one a paused stateless run was kept under)'),
  status: runStatusSchema,
  guardrail: guardrailBlockSchema.optional(),
  guardrails: z.array(guardrailRecordSchema).optional(),
  toolsUsed: z.array(z.string()),
  steps: z.array(z.string()),
  errorCode: z.string().optional(),
  interrupts: z
    .array(interruptSchema)
    .optional()
    .describe('tool calls waiting for approval: decide them with POST /api/agent/invoke'),
  sources: z
    .array(z.object({ documentId: z.string(), chunkId: z.string(), title: z.string() }))
    .optional(),
});

/** A `chat.completion`. */
export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int().describe('seconds since the epoch'),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string(),
        refusal: z.null(),
      }),
      logprobs: z.null(),
      finish_reason: z.enum(['stop', 'content_filter']),
    }),
  ),
  usage: usageSchema,
  yeoul: yeoulSchema,
});

/** One `chat.completion.chunk` of a streamed completion. */
export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: z.enum(['stop', 'content_filter']).nullable(),
    }),
  ),
  usage: usageSchema.nullable().optional(),
  yeoul: yeoulSchema.optional(),
});

/** GET /v1/models. */
export const modelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal('model'),
      created: z.number().int(),
      owned_by: z.literal('yeoul'),
    }),
  ),
});

/** The models `/v1` offers: one per chat graph (`yeoul-<graph>`). */
export function modelList(
  created: number,
  chatGraphs: readonly string[],
): z.infer<typeof modelListSchema> {
  return {
    object: 'list',
    data: chatGraphs.map((graph) => ({
      id: v1ModelOf(graph),
      object: 'model' as const,
      created,
      owned_by: 'yeoul' as const,
    })),
  };
}

/** Which completion a response or chunk belongs to. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** Tokens of a run in OpenAI's terms. */
export function usageOf(payload: AgentResponse): z.infer<typeof usageSchema> {
  const { inputTokens, outputTokens } = payload.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}

/** The `yeoul` extension of a finished run. */
export function yeoulExtension(
  payload: AgentResponse,
  sessionId: string | null,
): z.infer<typeof yeoulSchema> {
  return {
    sessionId,
    status: payload.status,
    toolsUsed: payload.toolsUsed,
    steps: payload.steps,
    ...(payload.errorCode ? { errorCode: payload.errorCode } : {}),
    ...(payload.interrupts?.length ? { interrupts: payload.interrupts } : {}),
    ...(payload.sources?.length ? { sources: payload.sources } : {}),
    ...(payload.guardrail ? { guardrail: payload.guardrail } : {}),
    ...(payload.guardrails?.length ? { guardrails: payload.guardrails } : {}),
  };
}

/** A whole `chat.completion` with `content` as the assistant's message. */
export function completionOf(
  identity: CompletionIdentity,
  content: string,
  payload: AgentResponse,
  sessionId: string | null,
): z.infer<typeof chatCompletionSchema> {
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: finishReasonOf(payload),
      },
    ],
    usage: usageOf(payload),
    yeoul: yeoulExtension(payload, sessionId),
  };
}

/** One chunk: a delta, or (with `finish`) the last one of the choice. */
export function chunkOf(
  identity: CompletionIdentity,
  delta: { role?: 'assistant'; content?: string },
  finish: 'stop' | 'content_filter' | null = null,
  extra: Pick<z.infer<typeof chatCompletionChunkSchema>, 'usage' | 'yeoul'> = {},
): z.infer<typeof chatCompletionChunkSchema> {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  };
}

/** The chunk with only the usage that `stream_options.include_usage` asks for (no choices). */
export function usageChunkOf(
  identity: CompletionIdentity,
  payload: AgentResponse,
): z.infer<typeof chatCompletionChunkSchema> {
  const { id, created, model } = identity;
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [],
    usage: usageOf(payload),
  };
}

/** Why a completion ended: `content_filter` when a guardrail blocked the turn or the answer. */
export function finishReasonOf(payload: AgentResponse): 'stop' | 'content_filter' {
  return payload.status === 'blocked' ? 'content_filter' : 'stop';
}
