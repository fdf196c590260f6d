import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './create-mcp-server.ts';
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
  const server = createMcpServer(backend);
  const transport = new StdioServerTransport(input, output);
  const ended = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
    signal?.addEventListener('abort', () => resolve(), { once: true });
    if (signal?.aborted) resolve();
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
