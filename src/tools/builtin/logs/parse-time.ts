import { z } from 'zod';

/** A parsed value, or the reason it could not be parsed in words a model can act on. */
export type Parsed<Value> = { ok: true; value: Value } | { ok: false; problem: string };

const unitMs: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const durationPattern = /^(?:\d+(?:ms|s|m|h|d|w))+$/;
const partPattern = /(\d+)(ms|s|m|h|d|w)/g;
const isoPattern =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A duration such as `15m`, `1h30m`, `2d` or `500ms`, in milliseconds.
 * @example parseDuration('1h30m') // { ok: true, value: 5_400_000 }
 */
export function parseDuration(text: string): Parsed<number> {
  const trimmed = text.trim().toLowerCase();
  if (!durationPattern.test(trimmed)) {
    return {
      ok: false,
      problem: `${JSON.stringify(text)} is not a duration such as 15m, 1h or 2d`,
    };
  }
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(partPattern)) {
    total += Number(amount) * (unitMs[unit as string] ?? 0);
  }
  if (total <= 0) return { ok: false, problem: `the duration ${JSON.stringify(text)} is zero` };
  return { ok: true, value: total };
}

/**
 * An ISO 8601 time (`2025-03-14T14:05:00Z`; without a zone it is UTC) or a duration before
 * `now` (`15m`, `1h`, `2d` mean that long ago).
 * @example parseTime('1h', new Date('2025-03-14T15:00:00Z')) // 2025-03-14T14:00:00Z
 */
export function parseTime(text: string, now: Date): Parsed<Date> {
  const trimmed = text.trim();
  if (isoPattern.test(trimmed)) {
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) && trimmed.length > 10;
    const normalised = trimmed.replace(' ', 'T');
    const time = new Date(hasZone || trimmed.length === 10 ? normalised : `${normalised}Z`);
    if (!Number.isNaN(time.getTime()) && isCalendarDate(trimmed)) return { ok: true, value: time };
    return { ok: false, problem: `${JSON.stringify(text)} is not a real date and time` };
  }
  const duration = parseDuration(trimmed);
  if (duration.ok) return { ok: true, value: new Date(now.getTime() - duration.value) };
  if (durationPattern.test(trimmed.toLowerCase())) return duration;
  return {
    ok: false,
    problem:
      `${JSON.stringify(text)} is neither an ISO time (2025-03-14T14:05:00Z) ` +
      'nor a duration ago (15m, 1h, 2d)',
  };
}

/**
 * The time of a text the argument schema (`timeInputSchema`) already accepted; throws if it
 * does not parse after all (a bug worth seeing, not a user's mistake).
 */
export function readTime(text: string, now: Date): Date {
  const parsed = parseTime(text, now);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
}

/** Date.parse rolls 2025-02-30 over to March 2; a real date has its day in its month. */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

/**
 * A tool argument holding an ISO time or a duration ago, checked when the arguments are (the
 * time it stands for is read at call time, against the environment's clock).
 */
export const timeInputSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .superRefine((text, context) => {
    const parsed = parseTime(text, new Date(0));
    if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.problem });
  });
