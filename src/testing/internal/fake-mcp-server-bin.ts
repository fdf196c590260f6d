// The fake MCP server's process (see fake-mcp-server.ts): `node fake-mcp-server-bin.ts MODE`.
import { runFakeMcpServer } from './fake-mcp-server.ts';

await runFakeMcpServer(process.argv[2] ?? 'tools');
