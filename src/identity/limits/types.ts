/** The limits an owner may be held to, by the names metrics and messages use. */
export const limitNames = ['requests_per_minute', 'tokens_per_day', 'tokens_per_month'] as const;

/** One of the limits. */
export type LimitName = (typeof limitNames)[number];

/**
 * The per-owner limits (`YEOUL_REQUESTS_PER_MINUTE`, `YEOUL_TOKENS_PER_DAY`,
 * `YEOUL_TOKENS_PER_MONTH`, or the config file's `limits`); null = no limit.
 */
export interface LimitSettings {
  /** Run requests an owner may start in any 60 seconds (a sliding window). */
  requestsPerMinute: number | null;
  /** Model tokens (input + output) an owner's runs may use per UTC day. */
  tokensPerDay: number | null;
  /** The same per UTC calendar month. */
  tokensPerMonth: number | null;
}

/** No limit at all: the default. */
export const noLimits: LimitSettings = {
  requestsPerMinute: null,
  tokensPerDay: null,
  tokensPerMonth: null,
};

/** What a run used, as its payload's `usage` reports it. */
export interface RunUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** Accepted run requests and what their runs used. */
export interface UsageTotals extends RunUsage {
  requests: number;
}

/** One UTC day of an owner's use. */
export interface UsageDay extends UsageTotals {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
}

/** One owner's days with any use in a range, oldest first. */
export interface OwnerUsageDays {
  owner: string;
  days: UsageDay[];
}

/** `GET /api/usage`'s body for one owner. */
export interface UsageReport {
  owner: string;
  from: string;
  to: string;
  days: UsageDay[];
  total: UsageTotals;
  limits: LimitSettings;
  /** Tokens left under the budgets now (never below 0); null for a budget not set. */
  remaining: { tokensToday: number | null; tokensThisMonth: number | null };
}

/** `GET /api/usage?owner=*`'s body: every owner with any use in the range. */
export interface EveryOwnersUsage {
  from: string;
  to: string;
  owners: Array<OwnerUsageDays & { total: UsageTotals }>;
}
