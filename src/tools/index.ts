export { ensureSampleLogs } from './builtin/logs/ensure-sample-logs.ts';
export { resolveLogSource } from './builtin/logs/resolve-log-source.ts';
export { ensureDemoDatabase } from './builtin/sql/ensure-demo-database.ts';
export { createDefaultTools } from './default-tools.ts';
export { defineTool } from './define-tool.ts';
export { createToolEnvironment } from './environment.ts';
export { ToolRegistrationError } from './errors/tool-registration-error.ts';
export { ToolRegistry } from './registry.ts';
export { ToolExecutor } from './tool-executor.ts';
export { parseToolPermissions } from './tool-permissions.ts';
export { toolVariables } from './tool-variables.ts';
export type {
  KnowledgePassage,
  Permission,
  ToolContext,
  ToolDefinition,
  ToolEnvironment,
} from './types.ts';
