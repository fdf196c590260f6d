import type { OwnerUsageDays, UsageDay } from './types.ts';

/** A day's row as both stores read it (PostgreSQL's bigints come as text). */
export interface UsageRow extends Record<string, unknown> {
  owner: string;
  date: string;
  requests: number | string;
  llm_calls: number | string;
  input_tokens: number | string;
  output_tokens: number | string;
}

/** A row as the API shows the day. */
export function usageDayOf(row: UsageRow): UsageDay {
  return {
    date: row.date,
    requests: Number(row.requests),
    llmCalls: Number(row.llm_calls),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
  };
}

/** Rows ordered by owner then day, as each owner's days. */
export function groupByOwner(rows: UsageRow[]): OwnerUsageDays[] {
  const owners: OwnerUsageDays[] = [];
  for (const row of rows) {
    const last = owners.at(-1);
    if (last?.owner === row.owner) last.days.push(usageDayOf(row));
    else owners.push({ owner: row.owner, days: [usageDayOf(row)] });
  }
  return owners;
}
