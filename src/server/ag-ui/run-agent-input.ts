import { z } from 'zod';
import { requestOptions, sessionIdSchema } from '../../protocol/index.ts';
import { HttpError } from '../http/http-error.ts';

const text = z.string().max(100_000);
const metadata = z.record(z.string(), z.unknown());

/** A call an assistant message made, as AG-UI names it. */
const toolCall = z.strictObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string(), arguments: z.string() }),
  encryptedValue: z.string().optional(),
  metadata: metadata.optional(),
});

/** The fields every AG-UI message may carry besides its role and content. */
const messageFields = {
  id: z.string().min(1).max(200),
  name: z.string().optional(),
  encryptedValue: z.string().optional(),
  metadata: metadata.optional(),
  subagentRunId: z.string().optional(),
};

/** A content part: only text parts are taken (others are refused by name). */
const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** One message of `RunAgentInput.messages`. */
const message = z.discriminatedUnion('role', [
  z.strictObject({
    ...messageFields,
    role: z.literal('user'),
    content: z.union([text, z.array(contentPart)]),
  }),
  z.strictObject({
    ...messageFields,
    role: z.literal('assistant'),
    content: text.optional(),
    toolCalls: z.array(toolCall).optional(),
  }),
  z.strictObject({ ...messageFields, role: z.literal('system'), content: text }),
  z.strictObject({ ...messageFields, role: z.literal('developer'), content: text }),
  z.strictObject({
    id: messageFields.id,
    role: z.literal('tool'),
    content: z.union([text, z.array(contentPart)]),
    toolCallId: z.string(),
    error: z.string().optional(),
    encryptedValue: z.string().optional(),
    metadata: metadata.optional(),
    subagentRunId: z.string().optional(),
  }),
]);

/** A tool the client offers and runs itself. */
const clientTool = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (at most 64)'),
  description: z.string().max(4000),
  parameters: z.record(z.string(), z.unknown()).optional(),
  metadata: metadata.optional(),
});

/** The answer to one interrupt of the paused run. */
const resumeEntry = z.strictObject({
  interruptId: z.string().min(1).max(200),
  status: z.enum(['resolved', 'cancelled']),
  payload: z
    .strictObject({ approved: z.boolean().optional(), reason: z.string().max(2000).optional() })
    .optional(),
  metadata: metadata.optional(),
});

/** The body of POST /ag-ui/NAME: AG-UI's `RunAgentInput`, as `HttpAgent` and CopilotKit send it. */
export const runAgentInput = z.strictObject({
  threadId: sessionIdSchema.describe('the session id (another owner’s: 404, nothing created)'),
  runId: z.string().min(1).max(200).describe('echoed in RUN_STARTED and RUN_FINISHED'),
  parentRunId: z.string().optional(),
  protocolVersion: z.literal('1.0').optional(),
  messages: z.array(message).max(1000),
  tools: z.array(clientTool).max(128).optional(),
  context: z
    .array(z.strictObject({ description: z.string().max(2000), value: z.string().max(20_000) }))
    .max(100)
    .optional(),
  state: z.unknown().optional().describe('must be {} (Yeoul keeps no shared state)'),
  forwardedProps: z
    .unknown()
    .optional()
    .describe('only forwardedProps.yeoul.options is read: /api’s options'),
  resume: z.array(resumeEntry).max(50).optional(),
});

/** A parsed `RunAgentInput`. */
export type RunAgentInput = z.output<typeof runAgentInput>;

/** One message of a parsed `RunAgentInput`. */
export type AgUiMessage = RunAgentInput['messages'][number];

/** The `/api` options `forwardedProps.yeoul.options` may give. */
export type AgUiOptions = z.output<typeof requestOptions>;

/**
 * Parses a request body as `RunAgentInput`: 422 `unsupported_field` naming every field AG-UI
 * or Yeoul does not take (unknown fields, non-text content parts, a non-empty `state`), 422
 * `invalid_request` naming every field that is malformed. Returns the input and its options.
 */
export function parseRunAgentInput(body: unknown): { input: RunAgentInput; options: AgUiOptions } {
  const parsed = runAgentInput.safeParse(body ?? {});
  const unsupported: string[] = [];
  const invalid: string[] = [];
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const at = pathOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) unsupported.push(at === '' ? key : `${at}.${key}`);
    } else invalid.push(`${at || '(body)'}: ${issue.message}`);
  }
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  unsupported.push(...unsupportedParts(raw.messages));
  if (!isEmptyState(raw.state)) unsupported.push('state');
  const options = optionsOf(raw.forwardedProps, unsupported);
  if (unsupported.length > 0) throw refused(unsupported);
  if (!parsed.success) {
    throw new HttpError({
      status: 422,
      code: 'invalid_request',
      message: `bad RunAgentInput: ${invalid.join('; ')}`,
    });
  }
  return { input: parsed.data, options };
}

/** The content parts of user and tool messages that are not text. */
function unsupportedParts(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((entry, index) => {
    const content = (entry as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((part, partIndex) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      return type === 'text' && typeof text === 'string'
        ? []
        : [`messages[${index}].content[${partIndex}]`];
    });
  });
}

/** Yeoul keeps no shared state: `state` may be absent, null or `{}`. */
function isEmptyState(state: unknown): boolean {
  return (
    state === undefined ||
    state === null ||
    (typeof state === 'object' && !Array.isArray(state) && Object.keys(state).length === 0)
  );
}

/** The text of a message's content (its text parts joined). */
export function textOf(content: string | Array<{ text?: string | undefined }> | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? '').join('');
}

/** `forwardedProps.yeoul.options`, checked as `/api`'s options; other props are not read. */
function optionsOf(forwarded: unknown, unsupported: string[]): AgUiOptions {
  const yeoul = (forwarded as { yeoul?: unknown } | null | undefined)?.yeoul;
  if (yeoul === undefined) return {};
  if (typeof yeoul !== 'object' || yeoul === null) {
    unsupported.push('forwardedProps.yeoul');
    return {};
  }
  for (const key of Object.keys(yeoul)) {
    if (key !== 'options') unsupported.push(`forwardedProps.yeoul.${key}`);
  }
  const parsed = requestOptions.safeParse((yeoul as { options?: unknown }).options ?? {});
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const at = pathOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        unsupported.push(`forwardedProps.yeoul.options.${at === '' ? key : `${at}.${key}`}`);
      }
    } else unsupported.push(`forwardedProps.yeoul.options${at === '' ? '' : `.${at}`}`);
  }
  return {};
}

function pathOf(path: PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

function refused(fields: string[]): HttpError {
  return new HttpError({
    status: 422,
    code: 'unsupported_field',
    message: `not supported here: ${fields.join(', ')}`,
    details: { fields },
  });
}
