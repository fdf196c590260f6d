/**
 * The MCP SDK's modules, each imported on its first use and kept: a server that never answers
 * an MCP request nor connects to an MCP server never loads the SDK (megabytes of heap). Each
 * loader groups what one use needs, so that serving on stdio never loads the HTTP transport.
 */

type ServerModule = typeof import('@modelcontextprotocol/sdk/server/mcp.js');
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');

let server: Promise<ServerModule> | undefined;
let types: Promise<TypesModule> | undefined;
let stdioServer: Promise<typeof import('@modelcontextprotocol/sdk/server/stdio.js')> | undefined;
let httpServer:
  | Promise<
      Pick<TypesModule, 'isInitializeRequest'> &
        typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')
    >
  | undefined;
let client:
  | Promise<
      typeof import('@modelcontextprotocol/sdk/client/index.js') &
        typeof import('@modelcontextprotocol/sdk/client/stdio.js') &
        typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js') &
        Pick<TypesModule, 'ErrorCode' | 'McpError' | 'ToolListChangedNotificationSchema'>
    >
  | undefined;

/** The SDK's `McpServer` module. */
export function loadMcpServerSdk(): Promise<ServerModule> {
  server ??= import('@modelcontextprotocol/sdk/server/mcp.js');
  return server;
}

/** The SDK's protocol types and their guards (`isJSONRPCResultResponse`, …). */
export function loadMcpTypesSdk(): Promise<TypesModule> {
  types ??= import('@modelcontextprotocol/sdk/types.js');
  return types;
}

/** The SDK's stdio server transport. */
export function loadMcpStdioServerSdk() {
  stdioServer ??= import('@modelcontextprotocol/sdk/server/stdio.js');
  return stdioServer;
}

/** The SDK's Streamable HTTP server transport, with `isInitializeRequest`. */
export function loadMcpHttpServerSdk() {
  httpServer ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    loadMcpTypesSdk(),
  ]).then(([transport, { isInitializeRequest }]) => ({ ...transport, isInitializeRequest }));
  return httpServer;
}

/** The SDK's client with its stdio and Streamable HTTP transports and the errors it throws. */
export function loadMcpClientSdk() {
  client ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    loadMcpTypesSdk(),
  ]).then(([client, stdio, http, { ErrorCode, McpError, ToolListChangedNotificationSchema }]) => ({
    ...client,
    ...stdio,
    ...http,
    ErrorCode,
    McpError,
    ToolListChangedNotificationSchema,
  }));
  return client;
}
