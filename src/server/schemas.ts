import { z } from 'zod';
import { sessionIdPattern } from '../core/index.ts';
import { HttpError } from './http-error.ts';

/** A session id: 1–128 letters, digits and `_ . : -`. */
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(sessionIdPattern, 'letters, digits and _ . : - only');

const decision = z.strictObject({
  id: z.string().min(1).max(200),
  approve: z.boolean(),
  reason: z.string().max(2000).optional(),
});

/** Per-request options of invoke and stream. */
export const requestOptions = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  maxIterations: z.number().int().min(1).max(20).optional(),
  /** `chat`, `react`, `ops` or a user chat graph of the config file. */
  graph: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'a graph name: chat, react, ops or a graph of the config file')
    .optional(),
  evaluate: z.boolean().optional(),
  onDisconnect: z.enum(['continue', 'cancel']).optional(),
});

/**
 * POST /api/agent/invoke and /api/agent/stream: a new `message`, or `resume.decisions`
 * for the session's paused run. Unknown fields are refused.
 */
export const invokeBody = z
  .strictObject({
    message: z.string().max(100_000, 'the message is longer than 100 000 characters').optional(),
    sessionId: sessionIdSchema.optional(),
    resume: z.strictObject({ decisions: z.array(decision).min(1).max(50) }).optional(),
    options: requestOptions.optional(),
  })
  .superRefine((body, context) => {
    if (body.resume === undefined && body.message === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['message'],
        message: 'required (or `resume` with decisions for a paused run)',
      });
    }
    if (body.resume !== undefined && body.message !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['resume'],
        message: 'send either a message or decisions, not both',
      });
    }
    if (body.resume !== undefined && body.sessionId === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['sessionId'],
        message: 'required with `resume`: the session whose run is paused',
      });
    }
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

/** Path parameters with a document id. */
export const idParams = z.strictObject({ id: z.string().min(1).max(200) });

/** Path parameters with a session id. */
export const sessionParams = z.strictObject({ id: sessionIdSchema });

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
