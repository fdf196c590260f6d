import { z } from 'zod';

/** An output (or conversation) item, as documented: its type decides the other fields. */
const itemSchema = z.looseObject({
  type: z.string().describe('message, function_call, function_call_output or mcp_approval_request'),
  id: z.string(),
});

/** A Response object (`/v1/responses`), the fields Yeoul fills. */
export const responseObjectSchema = z.looseObject({
  id: z.string().describe('resp_…'),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['in_progress', 'completed', 'failed', 'incomplete']),
  model: z.string(),
  output: z.array(itemSchema),
  usage: z.object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
  }),
  previous_response_id: z.string().nullable(),
  conversation: z.object({ id: z.string() }).nullable().describe('the session it is a turn of'),
  instructions: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.literal('content_filter') }).nullable(),
});

/** One event of a streamed response (`event: TYPE`). */
export const responseEventSchema = z.looseObject({
  type: z.string().describe('response.created, response.output_text.delta, response.completed, …'),
  sequence_number: z.number().int(),
});

/** DELETE /v1/responses/:id. */
export const responseDeletedSchema = z.object({
  id: z.string(),
  object: z.literal('response.deleted'),
  deleted: z.literal(true),
});

/** A conversation: a session of the caller. */
export const conversationSchema = z.object({
  id: z.string(),
  object: z.literal('conversation'),
  created_at: z.number().int(),
  metadata: z.record(z.string(), z.string()),
});

/** DELETE /v1/conversations/:id. */
export const conversationDeletedSchema = z.object({
  id: z.string(),
  object: z.literal('conversation.deleted'),
  deleted: z.literal(true),
});

/** A page of a conversation's items. */
export const itemListSchema = z.object({
  object: z.literal('list'),
  data: z.array(itemSchema),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

/** One item of a conversation. */
export const conversationItemSchema = itemSchema;

/** The path of a response. */
export const responseParams = z.object({ id: z.string().min(1).max(200) });
