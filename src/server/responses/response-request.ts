import { z } from 'zod';
import { requestOptions } from '../../protocol/index.ts';
import { HttpError } from '../http/http-error.ts';

/** The fields of OpenAI's request that Yeoul takes; any other (`background`, `reasoning`, …) is refused. */
const offered = new Set([
  'model',
  'input',
  'instructions',
  'previous_response_id',
  'conversation',
  'store',
  'stream',
  'tools',
  'tool_choice',
  'temperature',
  'max_output_tokens',
  'metadata',
  'user',
  'text',
  'parallel_tool_calls',
  'truncation',
  'include',
]);

const nullish = <Schema extends z.ZodType>(schema: Schema) => schema.nullish();

/** A text part of a message's content (`input_text`, or `output_text` in an assistant's). */
const textPart = z.looseObject({
  type: z.enum(['input_text', 'output_text']),
  text: z.string(),
});

/** A message item of `input`. */
export const messageItem = z.looseObject({
  type: z.literal('message').optional(),
  id: nullish(z.string()),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(textPart)]),
});

const functionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  id: nullish(z.string()),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(textPart)]),
});

const approvalResponseItem = z.looseObject({
  type: z.literal('mcp_approval_response'),
  id: nullish(z.string()),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: nullish(z.string()),
});

/** One item of `input`. */
export const inputItem = z.union([messageItem, functionCallOutputItem, approvalResponseItem]);

/** A tool the caller brings and runs itself. */
const functionTool = z.looseObject({
  type: z.literal('function'),
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a function name is 1–64 letters, digits, _ and -'),
  description: nullish(z.string()),
  parameters: nullish(z.record(z.string(), z.unknown())),
  strict: nullish(z.boolean()),
});

/** A conversation named by id, or `{id}`. */
const conversationRef = z.union([z.string().min(1), z.object({ id: z.string().min(1) })]);

/**
 * POST /v1/responses: OpenAI's Responses request, as far as Yeoul takes it. `null` counts
 * as absent; what it does not take is refused first, by name (`refuseUnsupported`).
 */
export const responseBody = z.object({
  model: z.string().min(1).describe('a GET /v1/models id: yeoul-chat, yeoul-react, …'),
  input: z.union([z.string(), z.array(inputItem).min(1).max(1000)]),
  instructions: nullish(z.string()).describe('a system message for this response only'),
  previous_response_id: nullish(z.string().min(1)).describe('continue after this response'),
  conversation: nullish(conversationRef).describe('a session of the caller to continue'),
  store: nullish(z.boolean()).describe(
    'false: keep nothing (no previous_response_id, no conversation)',
  ),
  stream: nullish(z.boolean()),
  tools: nullish(z.array(functionTool).max(128)),
  tool_choice: nullish(z.enum(['auto', 'none'])),
  temperature: requestOptions.shape.temperature.nullable(),
  max_output_tokens: nullish(z.number().int().min(1)),
  metadata: nullish(z.record(z.string().max(64), z.string().max(512))),
  user: nullish(z.string()),
  text: nullish(z.object({ format: nullish(z.object({ type: z.literal('text') })) })),
  parallel_tool_calls: nullish(z.boolean()),
  truncation: nullish(z.enum(['auto', 'disabled'])),
  include: nullish(z.array(z.string()).max(0)),
});

/** A parsed Responses request. */
export type ResponseBody = z.infer<typeof responseBody>;

/** An item of a parsed request's `input`. */
export type InputItem = z.infer<typeof inputItem>;

/**
 * Refuses, before anything else, what a Responses request asks that Yeoul does not offer:
 * 400 `unsupported_parameter` with `param` naming the first such field (an unknown field,
 * `background`, `reasoning`, `prompt`, a `text.format` other than text, `include` entries,
 * tools other than functions, a `tool_choice` other than auto or none, content parts other
 * than text, items other than messages, function outputs and approval responses).
 */
export function refuseUnsupported(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  for (const [field, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined && !offered.has(field)) {
      refuse(field, `${field} is not supported by Yeoul's Responses API`);
    }
  }
  const text = fields.text as Record<string, unknown> | null | undefined;
  if (isObject(text)) {
    for (const [key, value] of Object.entries(text)) {
      if (value === null || value === undefined) continue;
      const type = isObject(value) ? value.type : undefined;
      if (key !== 'format' || type !== 'text') {
        refuse(`text.${key}`, `text.${key}: only plain text output (format "text") is offered`);
      }
    }
  }
  if (Array.isArray(fields.include) && fields.include.length > 0) {
    refuse('include', 'include: no extra output data is offered');
  }
  if (Array.isArray(fields.tools)) {
    fields.tools.forEach((tool, index) => {
      if (!isObject(tool) || tool.type !== 'function') {
        refuse(`tools[${index}]`, `tools[${index}]: only function tools are offered`);
      }
    });
  }
  const choice = fields.tool_choice;
  if (choice !== null && choice !== undefined && choice !== 'auto' && choice !== 'none') {
    refuse('tool_choice', 'tool_choice: only "auto" and "none" are offered');
  }
  if (Array.isArray(fields.input)) refuseItems(fields.input);
}

const itemTypes = new Set(['message', 'function_call_output', 'mcp_approval_response']);

function refuseItems(items: unknown[]): void {
  items.forEach((item, index) => {
    if (!isObject(item)) return;
    const type = item.type ?? 'message';
    if (typeof type !== 'string' || !itemTypes.has(type)) {
      refuse(`input[${index}]`, `input[${index}]: "${String(type)}" items are not supported`);
    }
    if (type !== 'message' || !Array.isArray(item.content)) return;
    item.content.forEach((part, partIndex) => {
      const partType = isObject(part) ? part.type : undefined;
      if (partType !== 'input_text' && partType !== 'output_text') {
        refuse(
          `input[${index}].content[${partIndex}]`,
          `input[${index}].content[${partIndex}]: "${String(partType)}" parts are not supported; send text`,
        );
      }
    });
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(param: string, message: string): never {
  throw new HttpError({
    status: 400,
    code: 'unsupported_parameter',
    message,
    details: { param },
  });
}

/** The text of a message's (or a function output's) content. */
export function textOfContent(content: string | Array<{ text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('\n');
}
