import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** How the fake MCP server behaves. */
export type FakeMcpMode =
  /** Writes a line to stderr and exits with status 3 before answering anything. */
  | 'exit'
  /** Reads its input and never answers, not even `initialize`. */
  | 'hang'
  /**
   * A working server with tools `echo` {text}, `crash` (the process exits in the middle
   * of the call), `fail` (an error result) and `add_tool` {name} (registers a tool, so
   * the server sends `notifications/tools/list_changed`).
   */
  | 'tools';

/**
 * The command line that starts the fake MCP server on stdio (the SDK's own server classes:
 * the real protocol), for YEOUL_MCP_CONFIG entries in tests.
 * @example
 * const { command, args } = fakeMcpServerCommand('tools');
 */
export function fakeMcpServerCommand(mode: FakeMcpMode): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [join(import.meta.dirname, 'fake-mcp-server-bin.ts'), mode],
  };
}

/** Runs the fake MCP server of `mode` on this process's stdin and stdout. */
export async function runFakeMcpServer(mode: string): Promise<void> {
  if (mode === 'exit') {
    process.stderr.write('fake MCP server: refusing to start\n');
    process.exit(3);
  }
  if (mode === 'hang') {
    // Never answers, but goes when its client does (stdin closed), as a real server would:
    // a test run must not leave it behind.
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));
    process.stdin.on('close', () => process.exit(0));
    setInterval(() => undefined, 60_000);
    return;
  }
  const server = new McpServer({ name: 'fake-tools', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Repeats the text it is given.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool('crash', { description: 'Exits the server mid-call.' }, async () => {
    process.stderr.write('fake MCP server: crashing on purpose\n');
    setTimeout(() => process.exit(7), 10);
    return new Promise(() => undefined);
  });
  server.registerTool('fail', { description: 'Always fails.' }, async () => ({
    content: [{ type: 'text', text: 'the fake tool failed on purpose' }],
    isError: true,
  }));
  server.registerTool(
    'add_tool',
    {
      description: 'Adds a tool named `name`.',
      inputSchema: { name: z.string().regex(/^[a-z_]+$/) },
    },
    async ({ name }) => {
      server.registerTool(name, { description: `added at run time: ${name}` }, async () => ({
        content: [{ type: 'text', text: `${name} ran` }],
      }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );
  await server.connect(new StdioServerTransport());
}
