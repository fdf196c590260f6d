import { YeoulError } from '../../../core/index.ts';
import type { LimitName } from '../types.ts';

/** The words of each limit in messages. */
const reached: Record<LimitName, (used: number, allowed: number) => string> = {
  requests_per_minute: (_used, allowed) =>
    `${allowed} run requests in the last 60 seconds have reached the limit of ${allowed} per minute`,
  tokens_per_day: (used, allowed) =>
    `the tokens used today (${used}) have reached the daily budget of ${allowed}; it renews at 00:00 UTC`,
  tokens_per_month: (used, allowed) =>
    `the tokens used this month (${used}) have reached the monthly budget of ${allowed}; it renews on the first of next month, 00:00 UTC`,
};

/**
 * A run request refused by the owner's limits: `rate_limited` (the requests of the last 60
 * seconds) or `budget_exceeded` (the tokens of the UTC day or month), with the whole seconds
 * (at least 1) until it may be accepted. Nothing of the request was counted.
 */
export class LimitExceededError extends YeoulError {
  readonly limit: LimitName;
  readonly retryAfterSeconds: number;

  constructor(fields: {
    limit: LimitName;
    used: number;
    allowed: number;
    retryAfterSeconds: number;
  }) {
    super(
      fields.limit === 'requests_per_minute' ? 'rate_limited' : 'budget_exceeded',
      `${reached[fields.limit](fields.used, fields.allowed)}; retry in ${fields.retryAfterSeconds} s`,
    );
    this.limit = fields.limit;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}
