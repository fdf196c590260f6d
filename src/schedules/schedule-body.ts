import { z } from 'zod';
import { onBusyModes, onBusySchema, requestOptions, sessionIdSchema } from '../protocol/index.ts';
import { CronSchedule, parseCron } from './cron-schedule.ts';
import { isTimeZone } from './time-zone.ts';

/** The values of a schedule's `onBusy`. */
export { onBusyModes };

/** A schedule's `options`: the invoke options without `graph`, `onDisconnect` and `onBusy`. */
export const scheduleOptionsSchema = requestOptions.omit({
  graph: true,
  onDisconnect: true,
  onBusy: true,
});

const fields = {
  cron: z
    .string()
    .max(200)
    .describe('5 fields (minute hour day-of-month month day-of-week) or 6 (a second field first)'),
  timezone: z.string().max(64).describe('an IANA time zone name (default UTC)'),
  message: z.string().max(100_000, 'the message is longer than 100 000 characters'),
  graph: requestOptions.shape.graph.unwrap(),
  sessionId: sessionIdSchema,
  options: scheduleOptionsSchema,
  onBusy: onBusySchema,
  webhook: z.unknown().describe('a URL, or {url, headers?}: where the runs’ events are sent'),
  enabled: z.boolean(),
  name: z.string().max(200),
};

/** Adds an issue naming `timezone` or `cron` when either is wrong (checked together). */
function checkTiming(
  body: { cron?: string; timezone?: string },
  context: z.RefinementCtx,
  now = Date.now(),
): void {
  const timezone = body.timezone ?? 'UTC';
  if (!isTimeZone(timezone)) {
    context.addIssue({
      code: 'custom',
      path: ['timezone'],
      message: `"${timezone}" is not an IANA time zone name (such as UTC or Europe/Berlin)`,
    });
    return;
  }
  if (body.cron === undefined) return;
  const parsed = parseCron(body.cron, timezone, now);
  if (!(parsed instanceof CronSchedule)) {
    context.addIssue({ code: 'custom', path: ['cron'], message: parsed.problem });
  }
}

/** `POST /api/schedules`: a new schedule. Unknown fields are refused. */
export const scheduleBody = z
  .strictObject({
    cron: fields.cron,
    timezone: fields.timezone.optional(),
    message: fields.message,
    graph: fields.graph.optional(),
    sessionId: fields.sessionId.optional(),
    options: fields.options.optional(),
    onBusy: fields.onBusy.optional(),
    webhook: fields.webhook.optional(),
    enabled: fields.enabled.optional(),
    name: fields.name.optional(),
  })
  .superRefine((body, context) => checkTiming(body, context));

/**
 * `PATCH /api/schedules/:id`: any field of the POST; `webhook`, `sessionId` and `name` null
 * remove theirs. A cron sent without a timezone is checked here in UTC and again, with the
 * schedule's own zone, by `scheduleUpdateOf`.
 */
export const scheduleChangesBody = z
  .strictObject({
    cron: fields.cron.optional(),
    timezone: fields.timezone.optional(),
    message: fields.message.optional(),
    graph: fields.graph.optional(),
    sessionId: fields.sessionId.nullable().optional(),
    options: fields.options.optional(),
    onBusy: fields.onBusy.optional(),
    webhook: fields.webhook.optional(),
    enabled: fields.enabled.optional(),
    name: fields.name.nullable().optional(),
  })
  .superRefine((body, context) => checkTiming(body, context));

/** A parsed `POST /api/schedules` body. */
export type ScheduleBody = z.output<typeof scheduleBody>;

/** A parsed `PATCH /api/schedules/:id` body. */
export type ScheduleChangesBody = z.output<typeof scheduleChangesBody>;
