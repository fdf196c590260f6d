import { YeoulError } from '../../core/index.ts';

/** A tool of an MCP server was called while the server was not connected (starting, restarting or failed). */
export class McpServerUnavailableError extends YeoulError {
  readonly server: string;
  readonly state: string;

  constructor(fields: { server: string; state: string; reason?: string | undefined }) {
    super(
      'mcp_server_unavailable',
      `the MCP server "${fields.server}" is not connected (${fields.state}${fields.reason ? `: ${fields.reason}` : ''})`,
    );
    this.server = fields.server;
    this.state = fields.state;
  }
}
