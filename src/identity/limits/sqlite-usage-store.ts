import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { immediateTransaction, SqliteWriteBatch } from '../../core/index.ts';
import type { OwnerUsageDays, RunUsage, UsageDay } from './types.ts';
import { groupByOwner, type UsageRow, usageDayOf } from './usage-rows.ts';
import { type AdmitCheck, type AdmitOutcome, keptWindow, type UsageStore } from './usage-store.ts';
import { utcDate, utcMonthStart } from './utc-calendar.ts';

const schema = `
CREATE TABLE IF NOT EXISTS usage_days (
  owner TEXT NOT NULL, day TEXT NOT NULL, requests INTEGER NOT NULL DEFAULT 0,
  llm_calls INTEGER NOT NULL DEFAULT 0, input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (owner, day)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_days_day ON usage_days (day);
CREATE TABLE IF NOT EXISTS usage_windows (owner TEXT PRIMARY KEY, accepted TEXT NOT NULL) WITHOUT ROWID;
`;

const columns =
  'owner, day AS date, requests, llm_calls, input_tokens, output_tokens FROM usage_days';
const withUse = '(requests + llm_calls + input_tokens + output_tokens) > 0';

/**
 * Usage counts in the embedded SQLite store (the data folder's database, beside the
 * sessions): a `yeoul serve` and the command line on the same folder count into the same
 * rows, each admission in a transaction of its own (`BEGIN IMMEDIATE`), so it is atomic
 * across the processes. Windows keep request times as a JSON array of milliseconds.
 */
export class SqliteUsageStore implements UsageStore {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #selectWindow: StatementSync;
  #selectSpent: StatementSync;
  #countRequest: StatementSync;
  #saveWindow: StatementSync;
  #uncountRequest: StatementSync;
  #addUsage: StatementSync;
  #selectDays: StatementSync;
  #selectEveryDay: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(schema);
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#selectWindow = database.prepare('SELECT accepted FROM usage_windows WHERE owner = ?');
    this.#selectSpent = database.prepare(
      `SELECT coalesce(sum(input_tokens + output_tokens), 0) AS month,
         coalesce(sum(CASE WHEN day = ? THEN input_tokens + output_tokens END), 0) AS today
       FROM usage_days WHERE owner = ? AND day >= ? AND day <= ?`,
    );
    this.#countRequest = database.prepare(
      `INSERT INTO usage_days (owner, day, requests) VALUES (?, ?, 1)
       ON CONFLICT (owner, day) DO UPDATE SET requests = requests + 1`,
    );
    this.#saveWindow = database.prepare(
      `INSERT INTO usage_windows (owner, accepted) VALUES (?, ?)
       ON CONFLICT (owner) DO UPDATE SET accepted = excluded.accepted`,
    );
    this.#uncountRequest = database.prepare(
      'UPDATE usage_days SET requests = requests - 1 WHERE owner = ? AND day = ? AND requests > 0',
    );
    this.#addUsage = database.prepare(
      `INSERT INTO usage_days (owner, day, llm_calls, input_tokens, output_tokens) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (owner, day) DO UPDATE SET llm_calls = llm_calls + excluded.llm_calls,
         input_tokens = input_tokens + excluded.input_tokens,
         output_tokens = output_tokens + excluded.output_tokens`,
    );
    this.#selectDays = database.prepare(
      `SELECT ${columns} WHERE owner = ? AND day >= ? AND day <= ? AND ${withUse} ORDER BY day`,
    );
    this.#selectEveryDay = database.prepare(
      `SELECT ${columns} WHERE day >= ? AND day <= ? AND ${withUse} ORDER BY owner, day`,
    );
  }

  async admit(owner: string, check: AdmitCheck, now: Date): Promise<AdmitOutcome> {
    const time = now.getTime();
    const limit = check.requestsPerMinute;
    const budgets = check.tokensPerDay !== null || check.tokensPerMonth !== null;
    if (limit === null && !(check.enforce && budgets)) {
      // Nothing to read first (no limit, or none enforced): the count joins the group commit.
      await this.#batch.run(() => this.#countRequest.run(owner, utcDate(now)));
      return { accepted: true };
    }
    return this.#transaction(() => {
      const window = limit === null ? [] : this.#window(owner);
      // Only the latest `limit` requests can decide; a window kept for a larger limit shrinks.
      const latest = window.slice(-(limit ?? 0));
      if (limit !== null && latest.length < window.length) {
        this.#saveWindow.run(owner, JSON.stringify(latest));
      }
      if (check.enforce) {
        const refusal = this.#refusal(owner, check, latest, now);
        if (refusal) return refusal;
      }
      this.#countRequest.run(owner, utcDate(now));
      if (limit !== null) {
        this.#saveWindow.run(owner, JSON.stringify(keptWindow(latest, limit, time)));
      }
      return { accepted: true };
    });
  }

  async refund(owner: string, acceptedAt: Date): Promise<void> {
    this.#transaction(() => {
      this.#uncountRequest.run(owner, utcDate(acceptedAt));
      const window = this.#window(owner);
      const index = window.indexOf(acceptedAt.getTime());
      if (index < 0) return;
      window.splice(index, 1);
      this.#saveWindow.run(owner, JSON.stringify(window));
    });
  }

  async record(owner: string, usage: RunUsage, at: Date): Promise<void> {
    await this.#batch.run(() =>
      this.#addUsage.run(owner, utcDate(at), usage.llmCalls, usage.inputTokens, usage.outputTokens),
    );
  }

  async days(owner: string, from: string, to: string): Promise<UsageDay[]> {
    this.#batch.flush();
    return (this.#selectDays.all(owner, from, to) as unknown as UsageRow[]).map(usageDayOf);
  }

  async everyOwner(from: string, to: string): Promise<OwnerUsageDays[]> {
    this.#batch.flush();
    return groupByOwner(this.#selectEveryDay.all(from, to) as unknown as UsageRow[]);
  }

  /** The budget or rate the owner has reached, checked in the order of their waits. */
  #refusal(
    owner: string,
    check: AdmitCheck,
    latest: number[],
    now: Date,
  ): AdmitOutcome | undefined {
    if (check.tokensPerDay !== null || check.tokensPerMonth !== null) {
      const today = utcDate(now);
      const spent = this.#selectSpent.get(today, owner, utcMonthStart(now), today) as {
        month: number;
        today: number;
      };
      if (check.tokensPerMonth !== null && spent.month >= check.tokensPerMonth) {
        return { accepted: false, limit: 'tokens_per_month', used: spent.month };
      }
      if (check.tokensPerDay !== null && spent.today >= check.tokensPerDay) {
        return { accepted: false, limit: 'tokens_per_day', used: spent.today };
      }
    }
    // The window is full while the oldest of the latest `limit` requests is under 60 s old.
    const oldest = latest.length === check.requestsPerMinute ? latest[0] : undefined;
    if (oldest !== undefined && oldest > now.getTime() - 60_000) {
      return { accepted: false, limit: 'requests_per_minute', freedAt: oldest + 60_000 };
    }
    return undefined;
  }

  /** The owner's kept request times, oldest first. */
  #window(owner: string): number[] {
    const row = this.#selectWindow.get(owner) as { accepted: string } | undefined;
    return row === undefined
      ? []
      : (JSON.parse(row.accepted) as number[]).toSorted((a, b) => a - b);
  }

  /** Runs `work` in a write transaction of its own, after the batch's pending writes. */
  #transaction<T>(work: () => T): T {
    this.#batch.flush();
    return immediateTransaction(this.#database, work);
  }
}
