export { createMcpServer } from './create-mcp-server.ts';
export { McpClients } from './mcp-clients.ts';
export { mcpVariables } from './mcp-variables.ts';
export { parseMcpConfig, readMcpConfig } from './read-mcp-config.ts';
export { serveMcpOnStdio } from './serve-mcp-stdio.ts';
export { splitToolPermissions } from './split-tool-permissions.ts';
export { mcpToolPrefix } from './tool-names.ts';
export type { McpAnswer, McpBackend, McpClientLimits } from './types.ts';
