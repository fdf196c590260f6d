export { combineSignals, neverAbortedSignal, scopedSignal } from './abort.ts';
export { AsyncQueue } from './async-queue.ts';
export { blockedPort, blockedPortReason } from './blocked-port.ts';
export { isDiskFull, toSqliteStoreError } from './classify-sqlite-error.ts';
export { withCompileCache } from './compile-cache-env.ts';
export {
  deleteBlankVariables,
  environmentVariable,
  oneOf,
  variableDocs,
  wholeNumber,
  withoutBlankValues,
  yesNo,
} from './environment-variable.ts';
export { StoreUnavailableError } from './errors/store-unavailable-error.ts';
export { isYeoulError, YeoulError, type YeoulErrorOptions } from './errors/yeoul-error.ts';
export { createId, graphNamePattern, sessionIdPattern } from './ids.ts';
export { loadOnce } from './load-once.ts';
export { applyMigrations } from './postgres/apply-migrations.ts';
export {
  causedByConnectionFailure,
  describePostgresTarget,
  isConnectionFailure,
  toStoreError,
} from './postgres/classify-postgres-error.ts';
export {
  createPostgresPool,
  type PostgresClient,
  type PostgresPool,
  type PostgresPoolOptions,
  poolTarget,
} from './postgres/create-postgres-pool.ts';
export { migrationStatus } from './postgres/migration-status.ts';
export { combineMigrations, type Migration, migrationChecksum } from './postgres/migrations.ts';
export { queryPostgres, withTransaction } from './postgres/with-transaction.ts';
export { siblingModule } from './sibling-module.ts';
export { immediateTransaction } from './sqlite-transaction.ts';
export { SqliteWriteBatch } from './sqlite-write-batch.ts';
export {
  type Attributes,
  activeTraceIds,
  genAi,
  inSpan,
  recordsTraceContent,
  type Span,
  SpanKind,
  SpanStatusCode,
  setTraceContentRecording,
} from './tracing.ts';
export { yeoulManifest, yeoulRoot, yeoulVersion } from './version.ts';
