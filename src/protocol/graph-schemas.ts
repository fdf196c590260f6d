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

/** POST /api/graphs/:name/invoke and /stream: a state update, on a new or a continued thread. */
export const graphRunBody = z.strictObject({
  input: z.record(z.string(), z.unknown()).describe('a state update: channel name → value'),
  threadId: sessionIdSchema.optional(),
});

/** A question a graph run paused on, answered through the graph's thread. */
export const graphInterruptSchema = z.looseObject({
  id: z.string(),
  node: z.string().optional(),
  value: z.unknown(),
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
