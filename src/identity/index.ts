export { credentialOf, type RequestHeaders } from './credential-of.ts';
export {
  createIdentityResolver,
  type IdentifyOutcome,
  type IdentityRequest,
  type IdentityResolver,
  type IdentitySettings,
  identitySettingsOf,
} from './identity-resolver.ts';
export {
  type IdentityVariables,
  identityVariableProblems,
  identityVariables,
} from './identity-variables.ts';
export { anonymousIdentity, anonymousOwner, ownerOfKey } from './key-ring.ts';
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
export { isOwnerName, ownWorkspaceFolder } from './owner-names.ts';
export { defaultTokenScopes, isScope } from './scope-set.ts';
export type { TokenOutcome } from './token-verifier.ts';
export {
  type AuthenticateHook,
  type AuthHookIdentity,
  type AuthRefusal,
  type AuthRequest,
  type AuthSettings,
  type Identity,
  type IdentityVia,
  type JwtSettings,
  type Scope,
  scopes,
} from './types.ts';
