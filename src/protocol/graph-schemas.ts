import { z } from 'zod';
import { sessionIdSchema } from './request-schemas.ts';

/** GET /api/graphs: the built-in and user graphs. */
export const graphListSchema = z.object({
  graphs: z.array(
    z.object({
      name: z.string(),
      chat: z.boolean().describe('takes a message: runs on /api/agent/invoke with options.graph'),
      builtin: z.boolean(),
      mermaid: z.string().describe('the graph as a Mermaid flowchart'),
    }),
  ),
});

/**
 * POST /api/graphs/:name/invoke and /stream: a state update (`input`) on a new thread or on
 * `threadId`; or, for a paused thread, `resume.answers` by interrupt id.
 */
export const graphRunBody = z
  .strictObject({
    input: z
      .record(z.string(), z.unknown())
      .describe('a state update: channel name → value')
      .optional(),
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

/** Where inside subgraphs something happened: the subgraph's node, then inner nodes. */
export const graphPathSchema = z
  .array(z.string())
  .optional()
  .describe('inside a subgraph: its node, then the inner nodes (absent at the top level)');

/** A question a graph run paused on, answered with `resume.answers` on its thread. */
export const graphInterruptSchema = z.object({
  id: z.string(),
  node: z.string(),
  value: z.unknown().describe('what the node asked'),
  createdAt: z.string().describe('ISO time'),
  path: graphPathSchema,
});

/** The answer of POST /api/graphs/:name/invoke (and the `done` event of its stream). */
export const graphRunResponseSchema = z.object({
  threadId: z.string(),
  status: z.enum(['done', 'interrupted']),
  values: z.record(z.string(), z.unknown()).describe('the thread state after the run'),
  interrupts: z.array(graphInterruptSchema).optional(),
});

/** POST /api/sessions/:id/fork: a new session from the state after step `atStep`. */
export const forkBody = z.strictObject({
  atStep: z.number().int().min(-1),
  sessionId: sessionIdSchema.optional(),
});

/** The answer of POST /api/sessions/:id/fork (201). */
export const forkResponseSchema = z.object({
  sessionId: z.string(),
  forkedFrom: z.object({ sessionId: z.string(), step: z.number().int() }),
});
