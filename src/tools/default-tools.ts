import { calculatorTool } from './builtin/calculator.ts';
import { getCurrentDatetimeTool } from './builtin/get-current-datetime.ts';
import { getWeatherTool } from './builtin/get-weather.ts';
import { listFilesTool } from './builtin/list-files.ts';
import { createPythonTool, type PythonReplTool } from './builtin/python-repl.ts';
import { queryLogsTool } from './builtin/query-logs.ts';
import { queryMetricsTool } from './builtin/query-metrics.ts';
import { readFileTool } from './builtin/read-file.ts';
import { searchKnowledgeTool } from './builtin/search-knowledge.ts';
import { searchWikipediaTool } from './builtin/search-wikipedia.ts';
import { sqlQueryTool } from './builtin/sql-query.ts';
import { webSearchTool } from './builtin/web-search.ts';
import { writeFileTool } from './builtin/write-file.ts';
import { ToolRegistry } from './registry.ts';

/** The built-in tools, registered; `close` stops the Python interpreters. */
export interface DefaultTools {
  registry: ToolRegistry;
  python: PythonReplTool;
  close(): Promise<void>;
}

/**
 * Every built-in tool in one registry; `pythonCacheDir` keeps python_repl's interpreter
 * snapshot between runs (see PythonSandboxOptions.cacheDir). Adding a tool is one file in
 * `builtin/` and one `.register(…)` line here. Tools that cannot work in an environment (web search without
 * a Tavily key, knowledge search without a knowledge base) are left out of `describe`.
 * @example
 * const tools = createDefaultTools({ pythonCacheDir: 'data/cache' });
 * const executor = new ToolExecutor(tools.registry, { env });
 */
export function createDefaultTools(options: { pythonCacheDir?: string } = {}): DefaultTools {
  const python = createPythonTool({ cacheDir: options.pythonCacheDir });
  const registry = new ToolRegistry()
    .register(calculatorTool)
    .register(getCurrentDatetimeTool)
    .register(getWeatherTool)
    .register(searchWikipediaTool)
    .register(webSearchTool)
    .register(python)
    .register(readFileTool)
    .register(writeFileTool)
    .register(listFilesTool)
    .register(sqlQueryTool)
    .register(searchKnowledgeTool)
    .register(queryLogsTool)
    .register(queryMetricsTool);
  return { registry, python, close: () => python.close() };
}
