import { z } from 'zod';

/** GET /api/usage's query string (dates are checked by the route, naming the parameter). */
export const usageQuery = z.strictObject({
  from: z.string().describe('first day, YYYY-MM-DD (UTC); default 29 days before `to`').optional(),
  to: z.string().describe('last day, YYYY-MM-DD (UTC); default today').optional(),
  owner: z
    .string()
    .min(1)
    .max(300)
    .describe('another owner’s usage, or * for every owner (admins only)')
    .optional(),
});

const totals = z.object({
  requests: z.number().describe('accepted run requests'),
  llmCalls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
});

const day = totals.extend({ date: z.string().describe('YYYY-MM-DD (UTC)') });

/** GET /api/usage for one owner: its days with any use, oldest first, totals, limits and what is left. */
export const usageReportSchema = z.object({
  owner: z.string(),
  from: z.string(),
  to: z.string(),
  days: z.array(day),
  total: totals,
  limits: z.object({
    requestsPerMinute: z.number().nullable(),
    tokensPerDay: z.number().nullable(),
    tokensPerMonth: z.number().nullable(),
  }),
  remaining: z.object({
    tokensToday: z.number().nullable(),
    tokensThisMonth: z.number().nullable(),
  }),
});

/** GET /api/usage?owner=*: every owner with any use in the range. */
export const everyOwnersUsageSchema = z.object({
  from: z.string(),
  to: z.string(),
  owners: z.array(z.object({ owner: z.string(), days: z.array(day), total: totals })),
});
