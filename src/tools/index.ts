export { calculatorTool, createCalculatorTool } from './builtin/calculator.ts';
export { getCurrentDatetimeTool } from './builtin/get-current-datetime.ts';
export { getWeatherTool } from './builtin/get-weather.ts';
export { listFilesTool } from './builtin/list-files.ts';
export { createCloudWatchLogSource } from './builtin/logs/cloudwatch-source.ts';
export { createDatadogLogSource } from './builtin/logs/datadog-source.ts';
export { ensureSampleLogs, sampleLogsDir } from './builtin/logs/ensure-sample-logs.ts';
export { LogSourceError } from './builtin/logs/errors/log-source-error.ts';
export { createFileLogSource } from './builtin/logs/file-source.ts';
export { createLokiLogSource } from './builtin/logs/loki-source.ts';
export { type LogSourceResolution, resolveLogSource } from './builtin/logs/resolve-log-source.ts';
export type {
  LogEvent,
  LogQuery,
  LogQueryResult,
  LogSource,
  StatusRange,
} from './builtin/logs/types.ts';
export { createPythonTool, type PythonReplTool } from './builtin/python-repl.ts';
export { queryLogsTool } from './builtin/query-logs.ts';
export { queryMetricsTool } from './builtin/query-metrics.ts';
export { readFileTool } from './builtin/read-file.ts';
export { searchKnowledgeTool } from './builtin/search-knowledge.ts';
export { searchWikipediaTool } from './builtin/search-wikipedia.ts';
export { ensureDemoDatabase } from './builtin/sql/ensure-demo-database.ts';
export { sqlQueryTool } from './builtin/sql-query.ts';
export { webSearchTool } from './builtin/web-search.ts';
export { writeFileTool } from './builtin/write-file.ts';
export { createDefaultTools, type DefaultTools } from './default-tools.ts';
export { defineTool } from './define-tool.ts';
export { createToolEnvironment, publicEndpoints } from './environment.ts';
export { ToolRegistrationError } from './errors/tool-registration-error.ts';
export { formatToolError, formatToolOutput } from './format-result.ts';
export { type ToolDescription, ToolRegistry } from './registry.ts';
export { ToolExecutor, type ToolExecutorOptions } from './tool-executor.ts';
export {
  applyToolPermissions,
  type ParsedToolPermissions,
  parseToolPermissions,
} from './tool-permissions.ts';
export { type ToolVariables, toolVariables } from './tool-variables.ts';
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
