import { z } from 'zod';
import { builtinGraphNames } from '../../agents/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import { requestOptions } from '../../protocol/index.ts';
import { HttpError } from '../http/http-error.ts';

/** The model id `/v1` offers for a chat graph: `yeoul-<graph>`. */
export function v1ModelOf(graph: string): string {
  return `yeoul-${graph}`;
}

/** The chat graph a `/v1` model id names; 404 `model_not_found` for another id. */
export function graphOfV1Model(model: string, chatGraphs: readonly string[]): string {
  const graph = chatGraphs.find((name) => v1ModelOf(name) === model);
  if (graph !== undefined) return graph;
  throw new HttpError({
    status: 404,
    code: 'model_not_found',
    message: `The model \`${model}\` does not exist; the models are ${chatGraphs.map(v1ModelOf).join(', ')}`,
    details: { param: 'model' },
  });
}

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const otherPart = z.looseObject({ type: z.string() });

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(z.union([textPart, otherPart])), z.null()]).optional(),
  name: z.string().optional(),
});

/** What marks a client's system message when it reaches the model as a user message. */
export const clientInstructionsLabel = '[Instructions from the client application]';

/** Fields of OpenAI's request that bring the caller's own tools: Yeoul runs its own. */
const toolFields = ['tools', 'functions', 'tool_choice', 'function_call'] as const;

/**
 * POST /v1/chat/completions: OpenAI's request. `temperature` is checked as `/api`'s
 * option is; other OpenAI parameters (top_p, user, …) are accepted and ignored, and a
 * request that brings its own tools is refused (`unsupported_parameter`).
 */
export const chatCompletionBody = z.looseObject({
  model: z
    .string()
    .min(1)
    .describe(
      `${builtinGraphNames.map(v1ModelOf).join(', ')} or yeoul-<a chat graph of the config file>`,
    ),
  messages: z.array(message).min(1, 'at least one message').max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: requestOptions.shape.temperature.nullable(),
  max_tokens: z.number().int().min(1).nullish().describe('caps the answer’s output tokens'),
  max_completion_tokens: z.number().int().min(1).nullish().describe('same as max_tokens'),
  n: z.literal(1, 'only one choice (n: 1) is produced').nullish(),
});

/** A parsed chat-completions request. */
export type ChatCompletionBody = z.infer<typeof chatCompletionBody>;

/** What the agent gets from a chat-completions request. */
export interface V1Turn {
  graph: string;
  /** The last message, the user's: the new turn. */
  message: string;
  /** The messages before it, as Yeoul's messages (used only without `x-session-id`). */
  history: ChatMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  /** `x-yeoul-on-busy`: what the message does while its session is busy. */
  onBusy?: 'enqueue' | 'reject' | 'interrupt' | 'rollback';
}

/**
 * Checks a request beyond its schema and turns it into a turn: a known model, no tools
 * of the caller's, text content only, and a user message last.
 */
export function v1TurnOf(body: ChatCompletionBody, chatGraphs: readonly string[]): V1Turn {
  const given = toolFields.filter((field) => {
    const value = (body as Record<string, unknown>)[field];
    return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
  });
  if (given.length > 0) {
    throw new HttpError({
      status: 400,
      code: 'unsupported_parameter',
      message: `${given.join(', ')}: Yeoul runs its own tools; requests cannot bring theirs`,
      details: { param: given[0] },
    });
  }
  const graph = graphOfV1Model(body.model, chatGraphs);
  const messages = body.messages.map((entry, index) => ({
    role: entry.role,
    text: textOf(entry.content, index),
  }));
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new HttpError({
      status: 400,
      code: 'invalid_request',
      message: 'the last message must be the user’s (role "user"): it is the turn to answer',
      details: { param: `messages.${messages.length - 1}.role` },
    });
  }
  const history = messages.slice(0, -1).flatMap((entry): ChatMessage[] => {
    if (entry.text === '') return [];
    // Yeoul keeps its own system prompt (and the SDK refuses system messages among the
    // others): the client's instructions reach the model as a marked user message.
    if (entry.role === 'system' || entry.role === 'developer') {
      return [{ role: 'user', content: `${clientInstructionsLabel}\n${entry.text}` }];
    }
    if (entry.role === 'user' || entry.role === 'assistant') {
      return [{ role: entry.role, content: entry.text }];
    }
    return []; // tool results of a client's own tools: Yeoul has no calls for them
  });
  const maxOutputTokens = body.max_tokens ?? body.max_completion_tokens;
  return {
    graph,
    message: last.text,
    history,
    ...(body.temperature == null ? {} : { temperature: body.temperature }),
    ...(maxOutputTokens == null ? {} : { maxOutputTokens }),
  };
}

function textOf(content: z.infer<typeof message>['content'], index: number): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type === 'text' && typeof part.text === 'string') return part.text;
      throw new HttpError({
        status: 400,
        code: 'unsupported_parameter',
        message: `messages.${index}.content: "${part.type}" parts are not supported; send text`,
        details: { param: `messages.${index}.content` },
      });
    })
    .join('\n');
}
