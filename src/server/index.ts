export { errorResponse, HttpError } from './http/http-error.ts';
export { type RunningServer, startServer } from './http/start-server.ts';
export { createLogger } from './runtime/create-logger.ts';
export {
  type ConfigState,
  createRuntime,
  type Runtime,
  sampleKnowledgeDir,
} from './runtime/create-runtime.ts';
export { evalGraphNames, evalTargetOf, userScorersOf } from './runtime/eval-target.ts';
export { chatGraphNames, requireChatGraph, requireUserGraph } from './runtime/graph-names.ts';
export { createMcpBackend, type RunMcpCall } from './runtime/mcp-backend.ts';
export { readServerConfig, type ServerConfig } from './runtime/server-config.ts';
export { tuneServerHeap } from './runtime/server-heap.ts';
export { serverMigrations, storeMigrations } from './scale-out/server-migrations.ts';
export { forkSession } from './sessions/fork-session.ts';
export { inSessionLine } from './sessions/in-session-line.ts';
export {
  type PruneReport,
  parseRetentionDuration,
  pruneSessions,
} from './sessions/prune-sessions.ts';
export {
  anonymousOwner,
  ownerOfKey,
  type SessionStore,
  type SessionSummary,
} from './sessions/session-store.ts';
