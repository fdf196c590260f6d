import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Permission, ToolRegistry } from '../tools/index.ts';
import { McpServerUnavailableError } from './errors/mcp-server-unavailable-error.ts';
import { McpToolCallError } from './errors/mcp-tool-call-error.ts';
import { loadMcpClientSdk } from './load-mcp-sdk.ts';
import { mcpTool } from './mcp-tool.ts';
import { mcpToolName } from './tool-names.ts';
import type {
  McpClientLimits,
  McpLogger,
  McpServerEntry,
  McpServerState,
  McpServerStatus,
} from './types.ts';

/** The MCP SDK's client side, loaded by the first connection. */
type ClientSdk = Awaited<ReturnType<typeof loadMcpClientSdk>>;

/** A connection that stayed up this long has its restart count reset. */
const stableAfterMs = 60_000;
/** Longest a tool call may take on the server's side (the executor's own limit is shorter). */
const callTimeoutMs = 120_000;
/** How much of a stdio server's last stderr output an error message quotes. */
const stderrTail = 300;

/** What a connection needs from the runtime. */
export interface McpConnectionOptions {
  registry: ToolRegistry;
  limits: McpClientLimits;
  logger: McpLogger;
  /** Permissions `YEOUL_TOOL_PERMISSIONS` sets for MCP tools, by Yeoul name. */
  permissionOverrides: ReadonlyMap<string, Permission>;
  /** Yeoul's version, for `initialize`. */
  version: string;
}

/**
 * One configured MCP server: started (stdio) or connected (Streamable HTTP), its tools
 * registered as `NAME__tool` while it is connected and refreshed when it says they
 * changed. A server that cannot be spawned, exits, or does not answer `initialize` in
 * time is `failed`; one that dies after it had connected is restarted (with backoff, a
 * few times) and then `failed`. Nothing here throws at the runtime: failures are states.
 */
export class McpConnection {
  readonly entry: McpServerEntry;
  #options: McpConnectionOptions;
  #state: McpServerState = 'starting';
  #error: string | undefined;
  #client: Client | undefined;
  /** The client still connecting, so that closing stops a server that has not answered yet. */
  #connecting: Client | undefined;
  /** Yeoul names of the tools registered now. */
  #registered: string[] = [];
  /** Bumped on every (re)connection: callbacks of an older one are ignored. */
  #generation = 0;
  #restarts = 0;
  #connectedAt = 0;
  #closed = false;
  #restartTimer: NodeJS.Timeout | undefined;
  #stderr = '';

  constructor(entry: McpServerEntry, options: McpConnectionOptions) {
    this.entry = entry;
    this.#options = options;
  }

  /** The server as the status endpoint lists it. */
  status(): McpServerStatus {
    return {
      name: this.entry.name,
      state: this.#state,
      tools: [...this.#registered],
      ...(this.#error ? { error: this.#error } : {}),
    };
  }

  /** Starts or connects; resolves once the server is connected or failed (never rejects). */
  start(): Promise<void> {
    return this.#connect(false);
  }

  /** Disconnects (a stdio server's process is stopped) and removes its tools. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#generation += 1;
    clearTimeout(this.#restartTimer);
    this.#unregisterAll();
    const clients = [this.#client, this.#connecting];
    this.#client = undefined;
    this.#connecting = undefined;
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
  }

  /** Calls a tool by the server's own name; fails at once when the server is not connected. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const client = this.#client;
    if (this.#state !== 'connected' || client === undefined) {
      throw new McpServerUnavailableError({
        server: this.entry.name,
        state: this.#state,
        reason: this.#error,
      });
    }
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: callTimeoutMs,
      })) as CallToolResult;
    } catch (error) {
      if (signal.aborted) throw error;
      const { ErrorCode, McpError } = await loadMcpClientSdk();
      const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
      throw new McpToolCallError({
        server: this.entry.name,
        tool,
        reason: closed ? 'the server went away during the call' : describe(error),
        cause: error,
      });
    }
  }

  async #connect(restart: boolean): Promise<void> {
    const generation = ++this.#generation;
    const { limits, logger, version } = this.#options;
    this.#state = 'starting';
    this.#stderr = '';
    const sdk = await loadMcpClientSdk();
    // Closed (or restarted) while the SDK loaded: nothing to start.
    if (generation !== this.#generation) return;
    const { Client, ToolListChangedNotificationSchema } = sdk;
    const client = new Client({ name: 'yeoul', version }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (generation === this.#generation) void this.#refreshTools(client, generation);
    });
    client.onclose = () => {
      if (generation === this.#generation && this.#state === 'connected') this.#lost(generation);
    };
    client.onerror = (error) =>
      logger.debug({ mcpServer: this.entry.name, err: error }, 'MCP transport error');
    this.#connecting = client;
    try {
      await client.connect(this.#transport(sdk), { timeout: limits.initTimeoutMs });
      this.#connecting = undefined;
      if (generation !== this.#generation) {
        await client.close().catch(() => undefined);
        return;
      }
      this.#client = client;
      await this.#syncTools(client, generation);
    } catch (error) {
      if (this.#connecting === client) this.#connecting = undefined;
      if (generation !== this.#generation) return;
      await client.close().catch(() => undefined);
      this.#client = undefined;
      this.#unregisterAll();
      const reason = this.#failureReason(sdk, error);
      if (restart && this.#restarts < limits.maxRestarts) {
        this.#scheduleRestart(reason);
        return;
      }
      this.#state = 'failed';
      this.#error = reason;
      logger.warn(
        { mcpServer: this.entry.name, error: reason },
        'MCP server failed; its tools are not offered',
      );
      return;
    }
    if (generation !== this.#generation) return;
    this.#state = 'connected';
    this.#error = undefined;
    this.#connectedAt = Date.now();
    logger.info({ mcpServer: this.entry.name, tools: this.#registered }, 'MCP server connected');
  }

  /** The server went away after it had connected: its tools leave, and it is restarted or failed. */
  #lost(generation: number): void {
    const reason =
      this.entry.transport === 'stdio'
        ? `the server exited${this.#stderrNote()}`
        : 'the connection closed';
    this.#unregisterAll();
    this.#client = undefined;
    if (Date.now() - this.#connectedAt >= stableAfterMs) this.#restarts = 0;
    if (this.#closed || generation !== this.#generation) return;
    if (this.#restarts >= this.#options.limits.maxRestarts) {
      this.#state = 'failed';
      this.#error = `${reason}; gave up after ${this.#restarts} restarts`;
      this.#options.logger.warn(
        { mcpServer: this.entry.name, error: this.#error },
        'MCP server failed',
      );
      return;
    }
    this.#scheduleRestart(reason);
  }

  #scheduleRestart(reason: string): void {
    const delay = this.#options.limits.restartDelayMs * 2 ** this.#restarts;
    this.#restarts += 1;
    this.#state = 'starting';
    this.#error = reason;
    this.#options.logger.warn(
      { mcpServer: this.entry.name, error: reason, restartInMs: delay, restart: this.#restarts },
      'MCP server lost; restarting',
    );
    this.#restartTimer = setTimeout(() => {
      if (!this.#closed) void this.#connect(true);
    }, delay);
    this.#restartTimer.unref();
  }

  #transport({ StdioClientTransport, StreamableHTTPClientTransport }: ClientSdk): Transport {
    const entry = this.entry;
    if (entry.transport === 'http') {
      return new StreamableHTTPClientTransport(new URL(entry.url), {
        requestInit: { headers: entry.headers },
      });
    }
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      // The SDK adds PATH, HOME and the like, never the rest of Yeoul's environment (its keys).
      env: entry.env,
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.#stderr = (this.#stderr + text).slice(-stderrTail);
      this.#options.logger.debug(
        { mcpServer: entry.name, stderr: text.trimEnd() },
        'MCP server stderr',
      );
    });
    return transport;
  }

  async #refreshTools(client: Client, generation: number): Promise<void> {
    try {
      await this.#syncTools(client, generation);
      if (generation === this.#generation) {
        this.#options.logger.info(
          { mcpServer: this.entry.name, tools: this.#registered },
          'MCP tools changed',
        );
      }
    } catch (error) {
      this.#options.logger.warn(
        { mcpServer: this.entry.name, error: describe(error) },
        'MCP tool list refresh failed',
      );
    }
  }

  /** Lists the server's tools (every page) and makes the registry hold exactly those. */
  async #syncTools(client: Client, generation: number): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: this.#options.limits.initTimeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    if (generation !== this.#generation) return;
    const { registry, permissionOverrides, logger } = this.#options;
    this.#unregisterAll();
    const registered: string[] = [];
    for (const tool of tools) {
      const name = mcpToolName(this.entry.name, tool.name);
      if (registry.get(name) !== undefined) {
        logger.warn(
          { mcpServer: this.entry.name, tool: tool.name, name },
          'MCP tool skipped: its name is taken',
        );
        continue;
      }
      registry.register(
        mcpTool({
          server: this.entry.name,
          name,
          tool,
          permission: this.entry.permission,
          call: (original, args, signal) => this.callTool(original, args, signal),
        }),
      );
      const override = permissionOverrides.get(name);
      if (override) registry.setPermission(name, override);
      registered.push(name);
    }
    this.#registered = registered;
  }

  #unregisterAll(): void {
    for (const name of this.#registered) this.#options.registry.unregister(name);
    this.#registered = [];
  }

  #failureReason({ ErrorCode, McpError }: ClientSdk, error: unknown): string {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `did not answer initialize within ${this.#options.limits.initTimeoutMs / 1000} s`;
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return this.entry.transport === 'stdio'
        ? `the server exited before it answered initialize${this.#stderrNote()}`
        : 'the connection closed before the server answered initialize';
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && this.entry.transport === 'stdio') {
      return `cannot start "${this.entry.command}": no such program`;
    }
    return describe(error);
  }

  #stderrNote(): string {
    const last = this.#stderr.trim().split('\n').at(-1)?.trim();
    return last ? ` (stderr: ${last})` : '';
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
