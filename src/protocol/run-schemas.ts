import { z } from 'zod';
import { sessionIdSchema } from './request-schemas.ts';

/** A run's status. */
export const runRecordStatusSchema = z.enum([
  'queued',
  'running',
  'interrupted',
  'done',
  'failed',
  'cancelled',
]);

/** A run as `GET /api/runs/:id` shows it (`result` the invoke body, once it paused or ended). */
export const runSchema = z.object({
  runId: z.string(),
  sessionId: z.string(),
  status: runRecordStatusSchema,
  source: z.string().describe('what started it: invoke, stream, api, schedule, v1, mcp, eval, …'),
  graph: z.string(),
  message: z.string().optional().describe('the request’s message; absent for decisions'),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  attempts: z.number().int(),
  instanceId: z.string().describe('the instance that runs or ran it'),
  scheduleId: z.string().optional(),
  scheduledFor: z.string().nullable().optional(),
  catchUp: z.boolean().optional(),
  result: z.unknown().optional().describe('the invoke body'),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  cancelReason: z
    .object({
      type: z.enum(['request', 'client_left', 'superseded']),
      runId: z.string().optional(),
      onBusy: z.enum(['interrupt', 'rollback']).optional(),
      rollback: z.literal(true).optional().describe('cancelled by request with its steps removed'),
    })
    .optional(),
  webhook: z.unknown().optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('what the run’s caller attached (LangGraph’s run metadata)'),
});

/** `POST /api/runs` → 202: the run, started. */
export const runStartedSchema = z.object({
  runId: z.string(),
  sessionId: z.string(),
  status: z.enum(['queued', 'running']),
  createdAt: z.string(),
});

/** `GET /api/runs` → the caller's runs, newest first, without `result`. */
export const runListSchema = z.object({ runs: z.array(runSchema) });

/** `POST /api/runs/:id/cancel` → 202. */
export const runCancelledSchema = z.object({ runId: z.string(), status: z.literal('cancelled') });

/** Path parameters with a run id (the session id rule). */
export const runParams = z.strictObject({ id: sessionIdSchema.describe('the run id') });

/** `GET /api/runs/:id?wait=N`: answer once the run is no longer queued or running, or after N seconds. */
export const runWaitQuery = z.strictObject({
  wait: z.coerce.number().int().min(1).max(60).optional(),
});

/** `GET /api/runs` filters; any other field or value → 400. */
export const runListQuery = z.strictObject({
  sessionId: sessionIdSchema.optional(),
  scheduleId: z.string().min(1).max(200).optional(),
  status: z
    .string()
    .refine(
      (value) =>
        value.split(',').every((status) => runRecordStatusSchema.safeParse(status).success),
      'one of queued, running, interrupted, done, failed, cancelled (or several, comma-separated)',
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
