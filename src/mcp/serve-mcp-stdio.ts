import type { Readable, Writable } from 'node:stream';
import { createMcpServer } from './create-mcp-server.ts';
import { loadMcpStdioServerSdk } from './load-mcp-sdk.ts';
import type { McpBackend } from './types.ts';

/**
 * Serves Yeoul's MCP server over stdio (newline-delimited JSON-RPC on `input` and
 * `output`) until the input ends or `signal` fires; then the server closes. Only protocol
 * messages are written to `output`.
 * @example
 * await serveMcpOnStdio(backend, process.stdin, process.stdout);
 */
export async function serveMcpOnStdio(
  backend: McpBackend,
  input: Readable,
  output: Writable,
  signal?: AbortSignal,
): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
    signal?.addEventListener('abort', () => resolve(), { once: true });
    if (signal?.aborted) resolve();
  });
  const server = await createMcpServer(backend);
  const { StdioServerTransport } = await loadMcpStdioServerSdk();
  const transport = new StdioServerTransport(input, output);
  await server.connect(transport);
  await ended;
  await server.close();
}
