import { z } from 'zod';

/** What a session id may be everywhere (HTTP API, CLI, /v1): 1–128 letters, digits and `_ . : -`. */
export const sessionIdPattern = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A session id: 1–128 letters, digits and `_ . : -`. */
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(sessionIdPattern, 'letters, digits and _ . : - only');

/** A person's decision on one pending tool call. */
export const decisionSchema = z.strictObject({
  id: z.string().min(1).max(200),
  approve: z.boolean(),
  reason: z.string().max(2000).optional(),
});

/** What a new message does on a session with a run queued or running. */
export const onBusyModes = ['enqueue', 'reject', 'interrupt', 'rollback'] as const;

/** What a new message does on a busy session: wait its turn (default), 409, stop the run, or take it back. */
export const onBusySchema = z.enum(onBusyModes);

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
  /** What the message does when its session is busy (decisions ignore it). */
  onBusy: onBusySchema.optional(),
  /** False: this request neither reads nor writes the owner's long-term memory. */
  longTermMemory: z.boolean().optional(),
});

/**
 * POST /api/agent/invoke and /api/agent/stream: a new `message`, or `resume.decisions`
 * for the session's paused run. Unknown fields are refused.
 */
export const invokeBody = z
  .strictObject({
    message: z.string().max(100_000, 'the message is longer than 100 000 characters').optional(),
    sessionId: sessionIdSchema.optional(),
    resume: z.strictObject({ decisions: z.array(decisionSchema).min(1).max(50) }).optional(),
    options: requestOptions.optional(),
  })
  .superRefine(checkInvokeBody);

/**
 * Where a run's end is told: a URL, or `{url, headers}`. Any value passes here: where runs are
 * started it is checked whole, so a bad one is 400 `invalid_webhook` (as the documented shape says).
 */
export const webhookSchema = z.unknown().meta({
  description: 'a URL, or {url, headers}',
  anyOf: [
    { type: 'string', description: 'the URL' },
    {
      type: 'object',
      properties: {
        url: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['url'],
      additionalProperties: false,
    },
  ],
});

/** POST /api/runs: the invoke body, plus the webhook told when the run pauses or ends. */
export const runBody = z
  .strictObject({
    message: z.string().max(100_000, 'the message is longer than 100 000 characters').optional(),
    sessionId: sessionIdSchema.optional(),
    resume: z.strictObject({ decisions: z.array(decisionSchema).min(1).max(50) }).optional(),
    options: requestOptions.optional(),
    webhook: webhookSchema.optional(),
  })
  .superRefine(checkInvokeBody);

/** The rules across an invoke body's fields: a message or decisions, decisions with a session. */
function checkInvokeBody(
  body: { message?: string | undefined; resume?: unknown; sessionId?: string | undefined },
  context: z.RefinementCtx,
): void {
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
}

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
