export { checkLimits, type LimitCheck, type LimitDecision } from './limits/check-limits.ts';
export { LimitExceededError } from './limits/errors/limit-exceeded-error.ts';
export { limitVariables, readLimits } from './limits/limit-variables.ts';
export { PostgresUsageStore } from './limits/postgres-usage-store.ts';
export { runUsageOf } from './limits/run-usage.ts';
export { SqliteUsageStore } from './limits/sqlite-usage-store.ts';
export type {
  EveryOwnersUsage,
  LimitName,
  LimitSettings,
  RunUsage,
  UsageReport,
  UsageTotals,
} from './limits/types.ts';
export { Admission, UsageMeter } from './limits/usage-meter.ts';
export { usageMigrations } from './limits/usage-migrations.ts';
export { parseUsageRange, type UsageRange } from './limits/usage-report.ts';
export type { UsageStore } from './limits/usage-store.ts';
export { type Identity, type IdentityVia, type Scope, scopes } from './types.ts';
