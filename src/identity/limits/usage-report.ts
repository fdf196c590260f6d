import type {
  EveryOwnersUsage,
  LimitSettings,
  UsageDay,
  UsageReport,
  UsageTotals,
} from './types.ts';
import type { UsageStore } from './usage-store.ts';
import { addDays, daysInRange, isUtcDate, utcDate, utcMonthStart } from './utc-calendar.ts';

/** The longest range a usage report covers, in days. */
export const maxUsageRangeDays = 366;

/** A range of UTC dates, both included. */
export interface UsageRange {
  from: string;
  to: string;
}

/** A range as asked for, or what is wrong with it and which parameter is to blame. */
export type ParsedUsageRange =
  | ({ ok: true } & UsageRange)
  | { ok: false; param: 'from' | 'to'; message: string };

/**
 * Reads `from` and `to` (`YYYY-MM-DD`, UTC; default the 30 days up to today, or up to `to`).
 * Refused, naming the parameter: a date that is not one, `from` after `to`, or a range over
 * 366 days.
 * @example
 * parseUsageRange({ from: '2025-01-01' }, new Date('2025-01-10T12:00:00Z')); // 2025-01-01 … 2025-01-10
 */
export function parseUsageRange(
  given: { from?: string | undefined; to?: string | undefined },
  now: Date,
): ParsedUsageRange {
  for (const param of ['from', 'to'] as const) {
    const value = given[param];
    if (value !== undefined && !isUtcDate(value)) {
      return { ok: false, param, message: `${param}: "${value}" is not a date (YYYY-MM-DD)` };
    }
  }
  const to = given.to ?? utcDate(now);
  const from = given.from ?? addDays(to, -29);
  if (from > to) {
    return { ok: false, param: 'from', message: `from: ${from} is after to (${to})` };
  }
  const days = daysInRange(from, to);
  if (days > maxUsageRangeDays) {
    return {
      ok: false,
      param: 'from',
      message: `from: ${from} to ${to} is ${days} days; a range covers at most ${maxUsageRangeDays}`,
    };
  }
  return { ok: true, from, to };
}

/** The sum of days. */
export function totalOf(days: readonly UsageDay[]): UsageTotals {
  const total = { requests: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  for (const day of days) {
    total.requests += day.requests;
    total.llmCalls += day.llmCalls;
    total.inputTokens += day.inputTokens;
    total.outputTokens += day.outputTokens;
  }
  return total;
}

/**
 * One owner's use in a range, with the limits and the tokens left under the budgets now
 * (`GET /api/usage`, `yeoul usage --owner`).
 */
export async function usageReport(
  store: UsageStore,
  owner: string,
  range: UsageRange,
  limits: LimitSettings,
  now: Date,
): Promise<UsageReport> {
  const today = utcDate(now);
  const [days, month] = await Promise.all([
    store.days(owner, range.from, range.to),
    limits.tokensPerDay === null && limits.tokensPerMonth === null
      ? []
      : store.days(owner, utcMonthStart(now), today),
  ]);
  const tokens = (day: UsageDay) => day.inputTokens + day.outputTokens;
  const usedToday = month
    .filter((day) => day.date === today)
    .reduce((sum, day) => sum + tokens(day), 0);
  const usedThisMonth = month.reduce((sum, day) => sum + tokens(day), 0);
  const left = (budget: number | null, used: number) =>
    budget === null ? null : Math.max(0, budget - used);
  return {
    owner,
    from: range.from,
    to: range.to,
    days,
    total: totalOf(days),
    limits,
    remaining: {
      tokensToday: left(limits.tokensPerDay, usedToday),
      tokensThisMonth: left(limits.tokensPerMonth, usedThisMonth),
    },
  };
}

/** Every owner's use in a range (`GET /api/usage?owner=*`, `yeoul usage`). */
export async function everyOwnersUsage(
  store: UsageStore,
  range: UsageRange,
): Promise<EveryOwnersUsage> {
  const owners = await store.everyOwner(range.from, range.to);
  return {
    from: range.from,
    to: range.to,
    owners: owners.map(({ owner, days }) => ({ owner, days, total: totalOf(days) })),
  };
}
