import { YeoulError } from '../../core/index.ts';

/** An MCP server's tool call failed: the server reported an error, or it went away during the call. */
export class McpToolCallError extends YeoulError {
  readonly server: string;
  readonly tool: string;

  constructor(fields: { server: string; tool: string; reason: string; cause?: unknown }) {
    super('mcp_tool_failed', `${fields.tool} (MCP server "${fields.server}"): ${fields.reason}`, {
      cause: fields.cause,
    });
    this.server = fields.server;
    this.tool = fields.tool;
  }
}
