export { ConfigError, readServerConfig, type ServerConfig } from './config.ts';
export { createLogger } from './create-logger.ts';
export {
  type ConfigState,
  createRuntime,
  type Runtime,
  sampleKnowledgeDir,
} from './create-runtime.ts';
export { evalGraphNames, evalTargetOf, userScorersOf } from './eval-target.ts';
export { forkSession } from './fork-session.ts';
export { chatGraphNames, requireChatGraph, requireUserGraph } from './graph-names.ts';
export { errorResponse, HttpError } from './http-error.ts';
export { inSessionLine } from './in-session-line.ts';
export { createMcpBackend, type RunMcpCall } from './mcp-backend.ts';
export {
  type PruneReport,
  parseRetentionDuration,
  pruneSessions,
} from './prune-sessions.ts';
export { tuneServerHeap } from './server-heap.ts';
export { serverMigrations, storeMigrations } from './server-migrations.ts';
export {
  anonymousOwner,
  SessionRegistry,
  type SessionStore,
  type SessionSummary,
} from './session-registry.ts';
export { type RunningServer, startServer } from './start-server.ts';
