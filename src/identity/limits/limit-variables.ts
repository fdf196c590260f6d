import { z } from 'zod';
import { environmentVariable, wholeNumber } from '../../core/index.ts';
import type { LimitSettings } from './types.ts';

/** The per-owner limits' variables: unset = no limit; anything but a positive whole number stops the start. */
export const limitVariables = z.object({
  YEOUL_REQUESTS_PER_MINUTE: environmentVariable(wholeNumber({ min: 1, max: 100_000 }).optional(), {
    meaning:
      'run requests an owner may start in any 60 seconds (a sliding window); beyond it 429 `rate_limited`',
    default: 'unset = no limit',
  }),
  YEOUL_TOKENS_PER_DAY: environmentVariable(wholeNumber({ min: 1 }).optional(), {
    meaning:
      'model tokens (input + output) an owner’s runs may use per UTC day; once reached 429 `budget_exceeded`',
    default: 'unset = no limit',
  }),
  YEOUL_TOKENS_PER_MONTH: environmentVariable(wholeNumber({ min: 1 }).optional(), {
    meaning: 'the same per UTC calendar month',
    default: 'unset = no limit',
  }),
});

/** The limits' variables as read. */
export type LimitVariables = z.output<typeof limitVariables>;

/** The limits an environment (already read and checked) sets. */
export function readLimits(env: Partial<LimitVariables>): LimitSettings {
  return {
    requestsPerMinute: env.YEOUL_REQUESTS_PER_MINUTE ?? null,
    tokensPerDay: env.YEOUL_TOKENS_PER_DAY ?? null,
    tokensPerMonth: env.YEOUL_TOKENS_PER_MONTH ?? null,
  };
}
