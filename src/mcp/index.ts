export { answerOneMessage, discoverServer } from './answer-one-message.ts';
export { checkStatelessRequest } from './check-stateless-request.ts';
export { createMcpServer } from './create-mcp-server.ts';
export { loadMcpHttpServerSdk } from './load-mcp-sdk.ts';
export { McpClients } from './mcp-clients.ts';
export {
  jsonRpcIdOf,
  type McpRefusal,
  mcpRefusal,
  refuseRevision,
  sessionNotFound,
  sessionRevisions,
  statelessRevision,
} from './mcp-revisions.ts';
export { mcpSessionMigrations } from './mcp-session-migrations.ts';
export type { McpSession, McpSessionStore } from './mcp-session-store.ts';
export { mcpVariables } from './mcp-variables.ts';
export { PostgresMcpSessionStore } from './postgres-mcp-session-store.ts';
export { parseMcpConfig, readMcpConfig } from './read-mcp-config.ts';
export { serveMcpOnStdio } from './serve-mcp-stdio.ts';
export { splitToolPermissions } from './split-tool-permissions.ts';
export { SqliteMcpSessionStore } from './sqlite-mcp-session-store.ts';
export { mcpToolPrefix } from './tool-names.ts';
export type { McpAnswer, McpBackend, McpClientLimits } from './types.ts';
