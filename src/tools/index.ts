export { defineTool } from './define-tool.ts';
export { createToolEnvironment, publicEndpoints } from './environment.ts';
export { ToolRegistrationError } from './errors/tool-registration-error.ts';
export { formatToolError, formatToolOutput } from './format-result.ts';
export { type ToolDescription, ToolRegistry } from './registry.ts';
export { ToolExecutor, type ToolExecutorOptions } from './tool-executor.ts';
export type {
  KnowledgePassage,
  KnowledgeSearcher,
  Permission,
  ToolCallRequest,
  ToolContext,
  ToolDefinition,
  ToolEndpoints,
  ToolEnvironment,
  ToolResult,
} from './types.ts';
