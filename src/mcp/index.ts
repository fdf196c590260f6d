export { askInput, createMcpServer, searchKnowledgeInput } from './create-mcp-server.ts';
export { McpServerUnavailableError } from './errors/mcp-server-unavailable-error.ts';
export { McpToolCallError } from './errors/mcp-tool-call-error.ts';
export { defaultMcpClientLimits, McpClients, type McpClientsOptions } from './mcp-clients.ts';
export { type CallMcpTool, mcpTool, resultText } from './mcp-tool.ts';
export { type McpVariables, mcpVariables } from './mcp-variables.ts';
export { progressReporter } from './progress-reporter.ts';
export {
  type McpConfigReading,
  mcpConfigSchema,
  parseMcpConfig,
  readMcpConfig,
} from './read-mcp-config.ts';
export { serveMcpOnStdio } from './serve-mcp-stdio.ts';
export { type SplitToolPermissions, splitToolPermissions } from './split-tool-permissions.ts';
export { mcpServerNamePattern, mcpToolName, mcpToolPrefix } from './tool-names.ts';
export type {
  HttpServerEntry,
  McpAnswer,
  McpBackend,
  McpClientLimits,
  McpLogger,
  McpPassage,
  McpServerEntry,
  McpServerState,
  McpServerStatus,
  StdioServerEntry,
} from './types.ts';
