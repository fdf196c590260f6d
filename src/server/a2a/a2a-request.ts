import { z } from 'zod';
import type { ApprovalDecision } from '../../agents/index.ts';
import { sessionIdSchema } from '../../protocol/index.ts';
import { A2aError, a2aCodes } from './a2a-error.ts';

/** The protocol versions a request may speak; 0.3's method names answer in 0.3's shapes. */
export type A2aVersion = '1.0' | '0.3';

/** Output modes Yeoul answers in (the answer's text; approvals as data). */
const outputModes = new Set(['text/plain', 'text', 'application/json']);

const partSchema = z.strictObject({
  text: z.string().optional(),
  data: z.unknown().optional(),
  mediaType: z.string().optional(),
});

const messageSchema = z.strictObject({
  messageId: z.string().min(1),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: z.literal('ROLE_USER', { error: 'a message sent to an agent is the user’s (ROLE_USER)' }),
  parts: z.array(partSchema).min(1),
});

/** SendMessage's params (0.3's translated first). */
export const sendParamsSchema = z.strictObject({
  message: messageSchema,
  configuration: z
    .strictObject({
      acceptedOutputModes: z.array(z.string()).optional(),
      historyLength: z.int().min(0).optional(),
      returnImmediately: z.boolean().optional(),
    })
    .optional(),
});

/** GetTask's params. */
export const getParamsSchema = z.strictObject({
  id: z.string().min(1),
  historyLength: z.int().min(0).optional(),
});

/** CancelTask's and SubscribeToTask's params. */
export const idParamsSchema = z.strictObject({ id: z.string().min(1) });

/** ListTasks' params. */
export const listParamsSchema = z.strictObject({
  contextId: z.string().optional(),
  status: z.string().optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  pageToken: z.string().optional(),
  historyLength: z.coerce.number().int().min(0).optional(),
  includeArtifacts: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')])
    .optional(),
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
});

const decisionsSchema = z.strictObject({
  decisions: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        approve: z.boolean(),
        reason: z.string().optional(),
      }),
    )
    .min(1),
});

/** What a message asks: new text for a session, or decisions for a paused task. */
export interface A2aTurn {
  text?: string;
  decisions?: ApprovalDecision[];
  contextId?: string;
  taskId?: string;
  returnImmediately: boolean;
  historyLength?: number;
}

/**
 * Parses params with a schema, refusing at once (-32602) what it does not know, naming every
 * field; a push-notification config is refused as push notifications are (-32003).
 */
export function parseParams<Schema extends z.ZodType>(
  schema: Schema,
  params: unknown,
): z.output<Schema> {
  const given = dropEmpty(params ?? {});
  if (isObject(given)) {
    if (given.tenant !== undefined) unsupported(['tenant']);
    const parts = isObject(given.message) ? given.message.parts : undefined;
    for (const [index, part] of (Array.isArray(parts) ? parts : []).entries()) {
      if (isObject(part) && ['raw', 'url', 'file'].some((key) => key in part)) {
        throw contentType(`message.parts[${index}]: only text and data parts are understood`);
      }
    }
    const configuration = given.configuration;
    if (isObject(configuration) && configuration.taskPushNotificationConfig !== undefined) {
      throw new A2aError({
        rpcCode: a2aCodes.pushNotSupported,
        message: 'push notifications are not supported: configuration.taskPushNotificationConfig',
        data: { fields: ['configuration.taskPushNotificationConfig'] },
      });
    }
  }
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  const unknown = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => [...issue.path, key].join('.'))
      : [],
  );
  if (unknown.length > 0) unsupported(unknown);
  throw new A2aError({
    rpcCode: a2aCodes.invalidParams,
    message: parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`)
      .join('; '),
  });
}

/** A message's turn: its text parts joined, or the decisions of its data part. */
export function turnOf(params: z.output<typeof sendParamsSchema>): A2aTurn {
  const { message, configuration } = params;
  const texts: string[] = [];
  let decisions: ApprovalDecision[] | undefined;
  for (const [index, part] of message.parts.entries()) {
    if (part.mediaType !== undefined && !outputModes.has(part.mediaType)) {
      throw contentType(`message.parts[${index}].mediaType "${part.mediaType}"`);
    }
    if (part.text !== undefined && part.data === undefined) texts.push(part.text);
    else if (part.data !== undefined && part.text === undefined) {
      const parsed = decisionsSchema.safeParse(part.data);
      if (!parsed.success) {
        throw new A2aError({
          rpcCode: a2aCodes.invalidParams,
          message: `message.parts[${index}].data: a data part carries {decisions: [{id, approve, reason?}]}`,
        });
      }
      decisions = [...(decisions ?? []), ...parsed.data.decisions];
    } else throw contentType(`message.parts[${index}]: only text and data parts are understood`);
  }
  const modes = configuration?.acceptedOutputModes ?? [];
  if (modes.length > 0 && !modes.some((mode) => outputModes.has(mode))) {
    throw contentType(`configuration.acceptedOutputModes: Yeoul answers in text/plain`);
  }
  if (decisions !== undefined && texts.length > 0) {
    throw new A2aError({
      rpcCode: a2aCodes.invalidParams,
      message: 'message.parts: send decisions without text (they continue the paused task)',
    });
  }
  for (const [field, id] of [
    ['contextId', message.contextId],
    ['taskId', message.taskId],
  ] as const) {
    if (id !== undefined && !sessionIdSchema.safeParse(id).success) {
      throw new A2aError({
        rpcCode: a2aCodes.invalidParams,
        message: `message.${field}: an id is 1–128 letters, digits and _ . : -`,
      });
    }
  }
  return {
    ...(decisions === undefined ? { text: texts.join('\n') } : { decisions }),
    ...(message.contextId === undefined ? {} : { contextId: message.contextId }),
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    returnImmediately: configuration?.returnImmediately === true,
    ...(configuration?.historyLength === undefined
      ? {}
      : { historyLength: configuration.historyLength }),
  };
}

/**
 * 0.3's params as 1.0's: `kind`ed parts and lowercase roles, `blocking: false` as
 * `returnImmediately`, `pushNotificationConfig` as 1.0 names it. Fields 0.3 sends empty
 * (`acceptedOutputModes: []`) stay as they are.
 */
export function paramsFrom03(method: string, params: unknown): unknown {
  if (!isObject(params) || (method !== 'message/send' && method !== 'message/stream')) {
    return params;
  }
  const { message, configuration, ...rest } = params;
  const translated: Record<string, unknown> = { ...rest };
  if (isObject(message)) {
    const { kind: _kind, role, parts, ...fields } = message;
    translated.message = {
      ...fields,
      role: role === 'user' ? 'ROLE_USER' : role,
      parts: Array.isArray(parts) ? parts.map(partFrom03) : parts,
    };
  } else if (message !== undefined) translated.message = message;
  if (isObject(configuration)) {
    const { blocking, pushNotificationConfig, ...fields } = configuration;
    translated.configuration = {
      ...fields,
      ...(blocking === false ? { returnImmediately: true } : {}),
      ...(pushNotificationConfig === undefined
        ? {}
        : { taskPushNotificationConfig: pushNotificationConfig }),
    };
  }
  return translated;
}

function partFrom03(part: unknown): unknown {
  if (!isObject(part)) return part;
  const { kind, ...fields } = part;
  if (kind === 'text' || kind === 'data') return fields;
  return { ...fields, file: kind ?? 'unknown' };
}

/** Drops what JSON clients send for "absent": null, empty strings, empty lists and objects. */
function dropEmpty(value: unknown): unknown {
  if (!isObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null || field === '' || (Array.isArray(field) && field.length === 0)) continue;
    if (isObject(field) && Object.keys(field).length === 0) continue;
    kept[key] =
      key === 'data' ? field : Array.isArray(field) ? field.map(dropEmpty) : dropEmpty(field);
  }
  return kept;
}

function unsupported(fields: string[]): never {
  throw new A2aError({
    rpcCode: a2aCodes.invalidParams,
    message: `not supported: ${fields.join(', ')}`,
    data: { code: 'unsupported_field', fields },
  });
}

function contentType(message: string): A2aError {
  return new A2aError({ rpcCode: a2aCodes.contentTypeNotSupported, message });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
