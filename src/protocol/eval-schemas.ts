import { z } from 'zod';

/** POST /api/evals: items are checked one by one (every problem listed with its index). */
export const evalRunBody = z.strictObject({
  items: z.array(z.unknown()).min(1, 'needs at least one item').max(1000, 'at most 1000 items'),
  graph: z.string().min(1).max(64).optional(),
  scorers: z.array(z.string().min(1).max(64)).min(1).max(32).optional(),
  name: z.string().trim().min(1).max(200).optional(),
});

/** POST /api/sessions/:id/feedback. */
export const feedbackBody = z.strictObject({
  rating: z.union([z.literal(1), z.literal(-1)], { error: 'must be 1 (👍) or -1 (👎)' }),
  comment: z.string().max(2000).optional(),
});

const usage = z.object({ llmCalls: z.number(), inputTokens: z.number(), outputTokens: z.number() });
const summary = z.object({
  items: z.number(),
  passed: z.number(),
  failed: z.number(),
  meanScore: z.number(),
  byScorer: z.record(z.string(), z.number()),
});
const runFields = {
  id: z.string(),
  name: z.string(),
  graph: z.string(),
  createdAt: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  summary,
  error: z.string().optional(),
};

/** GET /api/evals/:id. */
export const evalRunSchema = z.object({
  ...runFields,
  items: z.array(
    z.object({
      id: z.string(),
      input: z.array(z.string()),
      response: z.string(),
      sessionId: z.string(),
      passed: z.boolean(),
      scores: z.array(
        z.object({
          scorer: z.string(),
          score: z.number(),
          passed: z.boolean(),
          reason: z.string(),
        }),
      ),
      latencyMs: z.number(),
      usage,
      tags: z.array(z.string()).optional(),
    }),
  ),
});

/** GET /api/evals: newest first, without items. */
export const evalRunListSchema = z.object({ runs: z.array(z.object(runFields)) });

/** POST /api/evals → 202. */
export const evalRunStartedSchema = z.object({ id: z.string() });

/** POST /api/sessions/:id/feedback → 201. */
export const feedbackSavedSchema = z.object({
  sessionId: z.string(),
  rating: z.union([z.literal(1), z.literal(-1)]),
  ratedAt: z.string(),
});
