import { z } from 'zod';
import { graphNamePattern } from '../../core/index.ts';
import type { StateSchema } from '../../graph/index.ts';
import type { graphRunBody } from '../../protocol/index.ts';
import { HttpError } from './http-error.ts';

/** A graph name in a path: `chat`, `react`, `ops` or a config file's graph. */
export const graphParams = z.object({
  name: z
    .string()
    .regex(graphNamePattern, 'a graph name')
    .describe('the graph name (GET /api/graphs lists them)'),
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
