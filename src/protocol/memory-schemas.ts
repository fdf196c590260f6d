import { z } from 'zod';

/** PUT /api/memory/<namespace>/<key>: any JSON value (at most 65 536 bytes as JSON). */
export const memoryPutBody = z.strictObject({ value: z.json() });

/** One long-term memory item. */
export const memoryItemSchema = z.object({
  namespace: z.string(),
  key: z.string(),
  value: z.unknown(),
  updatedAt: z.string(),
  score: z.number().optional(),
});

/** GET /api/memory. */
export const memoryListSchema = z.object({ items: z.array(memoryItemSchema) });
