import type { LimitName, LimitSettings, OwnerUsageDays, RunUsage, UsageDay } from './types.ts';

/** What one admission checks: the limits, and whether they apply to this request at all. */
export interface AdmitCheck extends LimitSettings {
  /** False for requests that are counted but never refused (admins, the command line). */
  enforce: boolean;
}

/** How an admission went: counted, or refused by a limit (and nothing counted). */
export type AdmitOutcome =
  | { accepted: true }
  | {
      accepted: false;
      limit: LimitName;
      /** For a budget: the tokens used under it. */
      used?: number;
      /** For the rate: when (ms since the epoch) a place in the window frees. */
      freedAt?: number;
    };

/**
 * Where each owner's use is counted: accepted run requests (their times, for the sliding
 * 60-second window) and, per UTC day, requests, model calls and tokens. SQLite in the data
 * folder's database, or PostgreSQL with `DATABASE_URL` (one conformance suite for both), so
 * counts survive restarts and, in PostgreSQL, are exact across instances.
 */
export interface UsageStore {
  /**
   * In one atomic step: checks the owner's use against `check` (when it enforces) and, unless
   * a limit is reached, counts one request at `now`. When several are reached, the one that
   * frees last answers (the month's budget, then the day's, then the rate).
   */
  admit(owner: string, check: AdmitCheck, now: Date): Promise<AdmitOutcome>;
  /** Takes back a request admitted at `acceptedAt` whose run never began. */
  refund(owner: string, acceptedAt: Date): Promise<void>;
  /** Adds a run's usage to the owner's day of `at`. */
  record(owner: string, usage: RunUsage, at: Date): Promise<void>;
  /** The owner's days with any use from `from` to `to` (`YYYY-MM-DD`, both included), oldest first. */
  days(owner: string, from: string, to: string): Promise<UsageDay[]>;
  /** Every owner with any use from `from` to `to`, by owner, each's days oldest first. */
  everyOwner(from: string, to: string): Promise<OwnerUsageDays[]>;
}

/**
 * Which requests of a 60-second window an admission keeps: the latest `limit - 1` before
 * `now` (with it, `limit`): only they can decide the next admission or its retry time.
 */
export function keptWindow(recent: number[], limit: number, now: number): number[] {
  return [...recent.slice(Math.max(recent.length - (limit - 1), 0)), now];
}
