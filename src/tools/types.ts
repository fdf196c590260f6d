import type { z } from 'zod';
import type { LogSource } from './builtin/logs/types.ts';

/** Whether a tool may run: always, only after a person approves the call, or never. */
export type Permission = 'allow' | 'ask' | 'deny';

/** Where tools reach the outside world; every field can be pointed at a local fake in tests. */
export interface ToolEndpoints {
  openMeteoGeocoding: string;
  openMeteoForecast: string;
  openWeather: string;
  /** MediaWiki API URL with `{lang}` standing for the wiki's language (`ko`, `en`). */
  wikipedia: string;
  tavily: string;
}

/** A passage the knowledge base found. */
export interface KnowledgePassage {
  documentId: string;
  chunkId: string;
  title: string;
  heading: string;
  text: string;
  score: number;
}

/** What the knowledge-search tool needs of the knowledge base (which satisfies it as is). */
export interface KnowledgeSearcher {
  search(query: string, options?: { k?: number }): Promise<KnowledgePassage[]>;
}

/** What tools may use: folders, endpoints, keys, a clock. Built once by the composition root. */
export interface ToolEnvironment {
  /** The only folder the file tools may read and write (of a run without an owner of its own). */
  workspaceDir: string;
  /**
   * The folder the file tools of a run serving `owner` see instead of `workspaceDir` (an end
   * user's folder of its own); unset, or `workspaceDir` back, keeps the whole workspace.
   */
  workspaceOf?: (owner: string) => string;
  /** The SQLite database the SQL tool queries, opened read-only. */
  sqlDatabasePath: string;
  endpoints: ToolEndpoints;
  keys: { openWeather?: string; tavily?: string };
  fetch: typeof fetch;
  now: () => Date;
  /** The knowledge base, when one is wired in (the knowledge-search tool is offered only then). */
  knowledge?: KnowledgeSearcher;
  /** Where `query_logs` reads (`YEOUL_LOGS`); the tool is offered only when set. */
  logs?: LogSource;
  /** Prometheus HTTP API base (`YEOUL_PROMETHEUS_URL`); `query_metrics` is offered only when set. */
  prometheusUrl?: string;
}

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  /** Fires when the call times out or the request is cancelled; pass it to fetch and friends. */
  signal: AbortSignal;
  env: ToolEnvironment;
  callId: string;
  /** The session (thread) whose run made the call, when it has one. */
  sessionId?: string;
}

/** A tool: a name the model calls it by, a description, a zod input schema and an execute function. */
export interface ToolDefinition<Input = unknown> {
  /** snake_case, unique in a registry. */
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema the model is shown, when the tool brings its own (an MCP server's
   * tool); default: derived from `inputSchema`.
   */
  inputJsonSchema?: Record<string, unknown>;
  /** Default `allow`; a registry can override it. */
  permission?: Permission;
  /** Default 10 000 ms. */
  timeoutMs?: number;
  /** Longest result, in characters, before it is cut (default 4 000). */
  maxResultChars?: number;
  /** False when the tool cannot work in this environment (a missing key); default true. */
  isAvailable?: (env: ToolEnvironment) => boolean;
  /** Returns text or JSON data; throws (or rejects) with a message the model can act on. */
  execute(input: Input, context: ToolContext): Promise<unknown>;
  /** Starts what the tool runs on (a worker thread) ahead of its first call. */
  warmUp?: () => Promise<void>;
}

/** A tool call as a model asks for it. `args` is an object or the JSON text of one. */
export interface ToolCallRequest {
  id: string;
  name: string;
  args: unknown;
}

/** The outcome of one tool call, as the model will see it. Failures are results too. */
export interface ToolResult {
  callId: string;
  name: string;
  /** The result text; starts with `Error: ` when `isError`. */
  content: string;
  isError: boolean;
  durationMs: number;
}
