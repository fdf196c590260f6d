import { z } from 'zod';
import { HttpError } from './http-error.ts';

const sessionId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');

/** POST /api/agent/invoke and /api/agent/stream. Unknown fields are refused. */
export const invokeBody = z.strictObject({
  message: z.string().max(100_000, 'the message is longer than 100 000 characters'),
  sessionId: sessionId.optional(),
  options: z
    .strictObject({
      temperature: z.number().min(0).max(2).optional(),
      maxIterations: z.number().int().min(1).max(20).optional(),
      graph: z.enum(['chat', 'react', 'ops']).optional(),
      evaluate: z.boolean().optional(),
    })
    .optional(),
});

/** POST /api/documents (JSON). */
export const documentsBody = z.strictObject({
  documents: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(200).optional(),
        title: z.string().max(500).optional(),
        text: z.string().min(1, 'a document needs text'),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .max(10_000, 'at most 10 000 documents per request'),
});

/** POST /api/search. */
export const searchBody = z.strictObject({
  query: z.string().min(1).max(2000),
  k: z.number().int().min(1).max(50).optional(),
});

/** Path parameters with an id. */
export const idParams = z.strictObject({ id: z.string().min(1).max(200) });

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
