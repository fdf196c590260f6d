import { z } from 'zod';
import type { StateSchema } from '../graph/index.ts';
import { HttpError } from './http-error.ts';
import { sessionIdSchema } from './schemas.ts';

/** A graph name in a path: `chat`, `react`, `ops` or a config file's graph. */
export const graphParams = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a graph name'),
});

/**
 * POST /api/graphs/:name/invoke and /stream: a state update (`input`) on a new thread or on
 * `threadId`; or, for a paused thread, `resume.answers` by interrupt id.
 */
export const graphRunBody = z
  .strictObject({
    input: z.record(z.string(), z.unknown()).optional(),
    threadId: sessionIdSchema.optional(),
    resume: z.strictObject({ answers: z.record(z.string(), z.unknown()) }).optional(),
  })
  .superRefine((body, context) => {
    if (body.input === undefined && body.resume === undefined) {
      context.addIssue({ code: 'custom', path: ['input'], message: 'required: a state update' });
    }
    if (body.input !== undefined && body.resume !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['resume'],
        message: 'send input or resume, not both',
      });
    }
    if (body.resume !== undefined && body.threadId === undefined) {
      context.addIssue({ code: 'custom', path: ['threadId'], message: 'required with `resume`' });
    }
  });

/** A graph run's body, parsed. */
export type GraphRunBody = z.infer<typeof graphRunBody>;

const chatMessage = z.looseObject({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string(),
});

/** What each kind of channel takes as an input value. */
const valueOfKind: Record<string, z.ZodType> = {
  increment: z.number({ error: 'a number (an increment channel adds it)' }),
  messages: z.union([chatMessage, z.array(chatMessage)], {
    error: 'a {role, content} message, or a list of them',
  }),
};

/**
 * Checks a graph run's `input` against the graph's channels: every unknown channel and
 * every value its channel cannot take is named, at once (400 `invalid_input`).
 */
export function checkGraphInput(
  graph: string,
  schema: StateSchema,
  input: Record<string, unknown>,
): void {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const channel = schema[key];
    if (channel === undefined) {
      problems.push(
        `input.${key}: the graph "${graph}" has no channel "${key}" (channels: ${Object.keys(schema).join(', ')})`,
      );
      continue;
    }
    const check = valueOfKind[channel.kind];
    const parsed = check?.safeParse(value);
    if (parsed && !parsed.success) {
      problems.push(
        `input.${key}: ${parsed.error.issues[0]?.message ?? 'not a value this channel takes'}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new HttpError({
      status: 400,
      code: 'invalid_input',
      message: problems.join('; '),
      details: { problems },
    });
  }
}
