import { LimitExceededError } from './errors/limit-exceeded-error.ts';
import type { LimitName, LimitSettings } from './types.ts';
import type { UsageStore } from './usage-store.ts';
import { nextUtcMidnight, nextUtcMonth } from './utc-calendar.ts';

/** One run request to check: whose, whether the limits apply to it, which, and when. */
export interface LimitCheck {
  owner: string;
  /** Counted but never refused: admins, and runs of the command line. */
  exempt: boolean;
  limits: LimitSettings;
  now: Date;
}

/** A request accepted (and counted at `acceptedAt`), or refused (and nothing counted). */
export type LimitDecision =
  | { accepted: true; acceptedAt: Date }
  | { accepted: false; error: LimitExceededError };

/** The setting each limit's name stands for. */
const settingOf: Record<LimitName, keyof LimitSettings> = {
  requests_per_minute: 'requestsPerMinute',
  tokens_per_day: 'tokensPerDay',
  tokens_per_month: 'tokensPerMonth',
};

/**
 * Checks a run request against its owner's limits and, within them, counts it, in one atomic
 * step of the store. Refused: the error says which limit and, in whole seconds (at least 1),
 * when to retry: when the oldest request of the window is 60 s old (the rate), or the next
 * 00:00 UTC (the day's budget) or the first of next month (the month's).
 * @example
 * const decision = await checkLimits(store, { owner, exempt: false, limits, now: new Date() });
 * if (!decision.accepted) throw decision.error; // 429
 */
export async function checkLimits(store: UsageStore, check: LimitCheck): Promise<LimitDecision> {
  const { now, limits } = check;
  const outcome = await store.admit(check.owner, { ...limits, enforce: !check.exempt }, now);
  if (outcome.accepted) return { accepted: true, acceptedAt: now };
  const until =
    outcome.limit === 'requests_per_minute'
      ? (outcome.freedAt ?? now.getTime() + 60_000)
      : outcome.limit === 'tokens_per_day'
        ? nextUtcMidnight(now).getTime()
        : nextUtcMonth(now).getTime();
  return {
    accepted: false,
    error: new LimitExceededError({
      limit: outcome.limit,
      used: outcome.used ?? 0,
      allowed: limits[settingOf[outcome.limit]] ?? 0,
      retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)),
    }),
  };
}
