export { type RunningServer, startServer } from './http/start-server.ts';
export type { RunEvents } from './runs/run-ledger.ts';
export type { AgentCall } from './runs/run-request.ts';
export type { CancelReason, RunRecord, RunStatus, RunStore } from './runs/run-store.ts';
export type { BackgroundRunOptions } from './runs/start-background-run.ts';
export { createLogger } from './runtime/create-logger.ts';
export { createRuntime, type Runtime } from './runtime/create-runtime.ts';
export { evalGraphNames, evalTargetOf, userScorersOf } from './runtime/eval-target.ts';
export { firstMessageTitle } from './runtime/first-message-title.ts';
export { requireChatGraph } from './runtime/graph-names.ts';
export { createMcpBackend } from './runtime/mcp-backend.ts';
export { readServerConfig } from './runtime/server-config.ts';
export {
  restartWithServerMalloc,
  tuneServerHeap,
} from './runtime/server-heap.ts';
export { storeMigrations } from './scale-out/server-migrations.ts';
export { deleteSession } from './sessions/delete-session.ts';
export { forkSession } from './sessions/fork-session.ts';
export type { GuardrailVaultStore } from './sessions/guardrail-vault-store.ts';
export { inSessionLine } from './sessions/in-session-line.ts';
export { parseRetentionDuration, pruneSessions } from './sessions/prune-sessions.ts';
export { sessionsOfOwner } from './sessions/sessions-of-owner.ts';
