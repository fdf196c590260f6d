import { z } from 'zod';

/** A retention duration: a whole number and `s`, `m`, `h` or `d` (`30d`, `12h`, `0s`). */
export const retentionDurationSchema = z
  .string()
  .regex(/^\s*\d{1,9}\s*[smhd]\s*$/, 'a number and s, m, h or d (30d, 12h, 15m, 0s)');

/**
 * POST /api/sessions/prune: remove the sessions idle longer than `olderThan` — the
 * caller's own, another owner's (`owner`, with `yeoul:admin`) or every owner's (`*`).
 */
export const pruneBody = z.strictObject({
  olderThan: retentionDurationSchema,
  dryRun: z.boolean().optional(),
  owner: z
    .string()
    .min(1)
    .max(261)
    .describe('an owner as GET /api/me names it, or * for every owner; default the caller’s own')
    .optional(),
});

/** The answer of POST /api/sessions/prune. */
export const pruneResponseSchema = z.object({
  removed: z.number().int().describe('sessions removed (or, dry, that would be)'),
  keptAwaitingApproval: z
    .number()
    .int()
    .describe('sessions old enough but kept: a tool call waits for an approval decision'),
  dryRun: z.boolean(),
});
