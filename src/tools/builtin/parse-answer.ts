import type { z } from 'zod';
import { ToolRequestError } from '../errors/tool-request-error.ts';

/**
 * Checks a service's JSON answer against the shape the tool relies on and returns it typed;
 * throws a {@link ToolRequestError} naming the first field that is missing or wrong.
 */
export function parseAnswer<Output>(
  service: string,
  schema: z.ZodType<Output>,
  value: unknown,
): Output {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the answer';
  throw new ToolRequestError({
    service,
    problem: 'sent an answer in an unexpected shape',
    detail: `${where}: ${issue?.message ?? 'invalid'}`,
    hint: 'the service may have changed or be misbehaving; try again later or answer without it',
  });
}
