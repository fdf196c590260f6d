import type { Permission, ToolRegistry } from '../tools/index.ts';
import { McpConnection } from './mcp-connection.ts';
import type { McpClientLimits, McpLogger, McpServerEntry, McpServerStatus } from './types.ts';

/** The limits of MCP client connections unless a caller sets others. */
export const defaultMcpClientLimits: McpClientLimits = {
  initTimeoutMs: 30_000,
  maxRestarts: 3,
  restartDelayMs: 1000,
};

const silentLogger: McpLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
};

/** What the MCP servers of a configuration need. */
export interface McpClientsOptions {
  registry: ToolRegistry;
  version: string;
  limits?: Partial<McpClientLimits>;
  logger?: McpLogger;
  /** Permissions `YEOUL_TOOL_PERMISSIONS` sets for MCP tools (see `splitToolPermissions`). */
  permissionOverrides?: ReadonlyMap<string, Permission>;
}

/**
 * The MCP servers of `YEOUL_MCP_CONFIG`, as tool sources: each is started or connected
 * on `start`, its tools joining the registry as `NAME__tool` while it is connected. A
 * server that fails is reported in `status()` and logged, never thrown: Yeoul runs on
 * without it.
 * @example
 * const mcp = new McpClients(servers, { registry, version: '0.1.0' });
 * await mcp.start(10_000); // waits at most 10 s; slower servers go on starting
 * mcp.status(); // [{name: 'everything', state: 'connected', tools: ['everything__echo', …]}]
 */
export class McpClients {
  #connections: McpConnection[];

  constructor(servers: McpServerEntry[], options: McpClientsOptions) {
    const settings = {
      registry: options.registry,
      version: options.version,
      limits: { ...defaultMcpClientLimits, ...options.limits },
      logger: options.logger ?? silentLogger,
      permissionOverrides: options.permissionOverrides ?? new Map<string, Permission>(),
    };
    this.#connections = servers.map((entry) => new McpConnection(entry, settings));
  }

  /**
   * Starts every server at once and resolves when all are connected or failed, or after
   * `waitMs` (servers still starting then go on in the background; their tools join when
   * they connect). Never rejects.
   */
  async start(waitMs = Number.POSITIVE_INFINITY): Promise<void> {
    const started = Promise.all(this.#connections.map((connection) => connection.start()));
    if (!Number.isFinite(waitMs)) {
      await started;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      started,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Each configured server with its state, its tools' names and its last error. */
  status(): McpServerStatus[] {
    return this.#connections.map((connection) => connection.status());
  }

  /** Stops every server (stdio processes end) and removes their tools. */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()));
  }
}
