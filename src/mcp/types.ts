import type { Permission } from '../tools/index.ts';

/** An MCP server Yeoul starts as a child process and talks to over stdio. */
export interface StdioServerEntry {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** The permission its tools run under (default `ask`). */
  permission: Permission;
}

/** An MCP server Yeoul connects to over Streamable HTTP. */
export interface HttpServerEntry {
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  /** The permission its tools run under (default `ask`). */
  permission: Permission;
}

/** One server of `YEOUL_MCP_CONFIG`, under its name. */
export type McpServerEntry = (StdioServerEntry | HttpServerEntry) & { name: string };

/** Where a configured server stands: its tools are offered only while `connected`. */
export type McpServerState = 'starting' | 'connected' | 'failed';

/** One server as `GET /api/agent/status` lists it. */
export interface McpServerStatus {
  name: string;
  state: McpServerState;
  /** The names its tools have in Yeoul (`NAME__tool`). */
  tools: string[];
  /** Why it failed (or last failed, while it restarts). */
  error?: string;
}

/** Time limits of MCP client connections. */
export interface McpClientLimits {
  /** Longest wait for a server's `initialize` answer (default 30 000 ms). */
  initTimeoutMs: number;
  /** Restarts of a server that died after it had connected, before it is `failed` (default 3). */
  maxRestarts: number;
  /** Pause before the first restart, doubled for each later one (default 1000 ms). */
  restartDelayMs: number;
}

/** A passage as the `search_knowledge` tool of Yeoul's MCP server returns it. */
export interface McpPassage {
  documentId: string;
  chunkId: string;
  title: string;
  heading: string;
  text: string;
  score: number;
}

/** What the agent answered to an MCP `ask` call. */
export interface McpAnswer {
  response: string;
  sessionId: string;
  status: string;
  toolsUsed: string[];
  errorCode?: string;
  interrupts?: Array<{ id: string; tool: string; args: unknown }>;
  sources?: Array<{ documentId: string; chunkId: string; title: string }>;
  /** The guardrail that blocked the turn or the answer (status `blocked`). */
  guardrail?: { name: string; stage: string; reason: string };
}

/**
 * What Yeoul's MCP server serves from: the agent and the knowledge base, handed over as
 * plain functions by the composition root (so that `mcp/` needs nothing of `server/`).
 */
export interface McpBackend {
  /** Yeoul's version, for the server's `initialize` answer. */
  version: string;
  /** The built-in agents' names, the default graph first (for `ask`'s description). */
  builtinGraphs: readonly string[];
  ask(
    request: { message: string; sessionId?: string; graph?: string },
    /** `onEvent` gets the run's stream events (`step`, `token`, `tool-call`, …) as they happen. */
    options: { signal: AbortSignal; onEvent: (name: string, data: unknown) => void },
  ): Promise<McpAnswer>;
  searchKnowledge(query: string, k: number | undefined): Promise<McpPassage[]>;
}

/** The few logger methods the MCP client uses (pino's signature). */
export interface McpLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}
