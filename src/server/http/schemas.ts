import { z } from 'zod';
import { sessionIdSchema } from '../../protocol/index.ts';
import { HttpError } from './http-error.ts';

const storedId = z.string().min(1).max(200);

/** Path parameters with a document id. */
export const documentParams = z.strictObject({ id: storedId.describe('the document id') });

/** Path parameters with an evaluation run id. */
export const evalRunParams = z.strictObject({ id: storedId.describe('the run id') });

/** Path parameters with a session id. */
export const sessionParams = z.strictObject({ id: sessionIdSchema.describe('the session id') });

/** Parses with a schema, or throws a 400 listing every problem. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
  );
  throw new HttpError({
    status: 400,
    code: 'invalid_request',
    message: problems.join('; '),
    details: problems,
  });
}
