import { CronSchedule, parseCron } from './cron-schedule.ts';
import type { ScheduleBody, ScheduleChangesBody } from './schedule-body.ts';
import type { NewSchedule, Schedule, ScheduleUpdate } from './schedule-store.ts';

/** The first slot after `now` of an enabled schedule; null for a disabled one. */
export function nextRunAtOf(
  schedule: { cron: string; timezone: string; enabled: boolean },
  now: number,
): number | null {
  if (!schedule.enabled) return null;
  const cron = parseCron(schedule.cron, schedule.timezone, now);
  return cron instanceof CronSchedule ? cron.next(now) : null;
}

/**
 * The schedule a checked `POST /api/schedules` body makes for `owner`: defaults filled in
 * (`timezone` UTC, `graph` the default graph, `onBusy` enqueue, enabled) and its first slot.
 */
export function newScheduleOf(
  owner: string,
  body: ScheduleBody,
  context: { now: number; defaultGraph: string },
): NewSchedule {
  const definition = {
    name: body.name ?? null,
    cron: body.cron.trim(),
    timezone: body.timezone ?? 'UTC',
    message: body.message,
    graph: body.graph ?? context.defaultGraph,
    sessionId: body.sessionId ?? null,
    options: body.options ?? {},
    onBusy: body.onBusy ?? 'enqueue',
    webhook: body.webhook ?? null,
    enabled: body.enabled ?? true,
  };
  return { ...definition, owner, nextRunAt: nextRunAtOf(definition, context.now) };
}

/**
 * What a checked `PATCH` body changes on `schedule`, its next slot recomputed from `now`; or
 * the problems (naming the field) when the cron does not hold in the zone it ends up with.
 */
export function scheduleUpdateOf(
  schedule: Schedule,
  changes: ScheduleChangesBody,
  now: number,
): { update: ScheduleUpdate } | { problems: string[] } {
  const merged = {
    cron: changes.cron?.trim() ?? schedule.cron,
    timezone: changes.timezone ?? schedule.timezone,
    enabled: changes.enabled ?? schedule.enabled,
  };
  const cron = parseCron(merged.cron, merged.timezone, now);
  if (!(cron instanceof CronSchedule)) return { problems: [`cron: ${cron.problem}`] };
  const update: ScheduleUpdate = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined) Object.assign(update, { [field]: value });
  }
  if (changes.cron !== undefined) update.cron = merged.cron;
  update.nextRunAt = merged.enabled ? cron.next(now) : null;
  return { update };
}

/** A schedule as the API shows it (what `scheduleView` returns). */
export type ScheduleView = ReturnType<typeof scheduleView>;

/**
 * A schedule as the API shows it: times ISO (UTC), the webhook's URL only (its headers are
 * never shown), no owner.
 */
export function scheduleView(schedule: Schedule) {
  const iso = (instant: number | null) =>
    instant === null ? null : new Date(instant).toISOString();
  return {
    id: schedule.id,
    name: schedule.name,
    cron: schedule.cron,
    timezone: schedule.timezone,
    message: schedule.message,
    graph: schedule.graph,
    sessionId: schedule.sessionId,
    options: schedule.options,
    onBusy: schedule.onBusy,
    webhook: webhookUrlOf(schedule.webhook),
    enabled: schedule.enabled,
    createdAt: iso(schedule.createdAt) as string,
    updatedAt: iso(schedule.updatedAt) as string,
    nextRunAt: schedule.enabled ? iso(schedule.nextRunAt) : null,
    lastRunAt: iso(schedule.lastRunAt),
    lastRunId: schedule.lastRunId,
  };
}

/** `{url}` of a webhook given as a URL or `{url, headers}`; null for none. */
function webhookUrlOf(webhook: unknown): { url: string } | null {
  if (typeof webhook === 'string') return { url: webhook };
  if (typeof webhook === 'object' && webhook !== null && 'url' in webhook) {
    return { url: String(webhook.url) };
  }
  return null;
}
