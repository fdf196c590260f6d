// The MCP SDK's modules, each imported on its first use and kept: a server that never answers
// an MCP request nor connects to an MCP server never loads the SDK (megabytes of heap). Each
// loader groups what one use needs, so that serving on stdio never loads the HTTP transport.
import { loadOnce } from '../core/index.ts';

/** The SDK's `McpServer` module. */
export const loadMcpServerSdk = loadOnce(() => import('@modelcontextprotocol/sdk/server/mcp.js'));

/** The SDK's protocol types and their guards (`isJSONRPCResultResponse`, …). */
export const loadMcpTypesSdk = loadOnce(() => import('@modelcontextprotocol/sdk/types.js'));

/** The SDK's stdio server transport. */
export const loadMcpStdioServerSdk = loadOnce(
  () => import('@modelcontextprotocol/sdk/server/stdio.js'),
);

/** The SDK's Streamable HTTP server transport, with `isInitializeRequest`. */
export const loadMcpHttpServerSdk = loadOnce(async () => {
  const [transport, { isInitializeRequest }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    loadMcpTypesSdk(),
  ]);
  return { ...transport, isInitializeRequest };
});

/** The SDK's client with its stdio and Streamable HTTP transports and the errors it throws. */
export const loadMcpClientSdk = loadOnce(async () => {
  const [client, stdio, http, { ErrorCode, McpError, ToolListChangedNotificationSchema }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      loadMcpTypesSdk(),
    ]);
  return { ...client, ...stdio, ...http, ErrorCode, McpError, ToolListChangedNotificationSchema };
});
