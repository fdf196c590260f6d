import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import type { OwnerUsageDays, RunUsage, UsageDay } from './types.ts';
import { groupByOwner, type UsageRow, usageDayOf } from './usage-rows.ts';
import type { AdmitCheck, AdmitOutcome, UsageStore } from './usage-store.ts';
import { utcDate, utcMonthStart } from './utc-calendar.ts';

const columns = `owner, to_char(day, 'YYYY-MM-DD') AS date, requests, llm_calls, input_tokens,
  output_tokens FROM usage_days`;
/** The admission: hot, so prepared once per connection. */
const admitSql = {
  name: 'yeoul_usage_admit',
  text: 'SELECT * FROM yeoul_usage_admit($1, $2, $3, $4, $5, $6, $7, $8)',
};
const withUse = '(requests + llm_calls + input_tokens + output_tokens) > 0';

/**
 * Usage counts in PostgreSQL (`usage_days` and the windows' ring from `usageMigrations`), shared
 * by every instance: an admission is one call of `yeoul_usage_admit` (one round trip), which
 * holds the owner's advisory lock while it checks and counts, so N requests of one owner at
 * once through any instances under a limit of L are exactly L accepted.
 */
export class PostgresUsageStore implements UsageStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async admit(owner: string, check: AdmitCheck, now: Date): Promise<AdmitOutcome> {
    const { rows } = await queryPostgres<{
      refused: string | null;
      used: string | null;
      freed_at: string | null;
    }>(this.#pool, admitSql, [
      owner,
      now.getTime(),
      utcDate(now),
      utcMonthStart(now),
      check.requestsPerMinute,
      check.tokensPerDay,
      check.tokensPerMonth,
      check.enforce,
    ]);
    const row = rows[0];
    if (row === undefined || row.refused === null) return { accepted: true };
    return {
      accepted: false,
      limit: row.refused as Extract<AdmitOutcome, { accepted: false }>['limit'],
      ...(row.used === null ? {} : { used: Number(row.used) }),
      ...(row.freed_at === null ? {} : { freedAt: Number(row.freed_at) }),
    };
  }

  async refund(owner: string, acceptedAt: Date): Promise<void> {
    await queryPostgres(this.#pool, 'SELECT yeoul_usage_refund($1, $2, $3)', [
      owner,
      acceptedAt.getTime(),
      utcDate(acceptedAt),
    ]);
  }

  async record(owner: string, usage: RunUsage, at: Date): Promise<void> {
    await queryPostgres(
      this.#pool,
      `INSERT INTO usage_days (owner, day, llm_calls, input_tokens, output_tokens)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (owner, day) DO UPDATE SET llm_calls = usage_days.llm_calls + excluded.llm_calls,
         input_tokens = usage_days.input_tokens + excluded.input_tokens,
         output_tokens = usage_days.output_tokens + excluded.output_tokens`,
      [owner, utcDate(at), usage.llmCalls, usage.inputTokens, usage.outputTokens],
    );
  }

  async days(owner: string, from: string, to: string): Promise<UsageDay[]> {
    const { rows } = await queryPostgres<UsageRow>(
      this.#pool,
      `SELECT ${columns} WHERE owner = $1 AND day >= $2 AND day <= $3 AND ${withUse} ORDER BY day`,
      [owner, from, to],
    );
    return rows.map(usageDayOf);
  }

  async everyOwner(from: string, to: string): Promise<OwnerUsageDays[]> {
    const { rows } = await queryPostgres<UsageRow>(
      this.#pool,
      `SELECT ${columns} WHERE day >= $1 AND day <= $2 AND ${withUse} ORDER BY owner, day`,
      [from, to],
    );
    return groupByOwner(rows);
  }
}
