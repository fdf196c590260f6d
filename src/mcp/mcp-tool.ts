import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, type Permission, type ToolDefinition } from '../tools/index.ts';
import { McpToolCallError } from './errors/mcp-tool-call-error.ts';

/** Calls a tool on the server by its own name; rejects when the server cannot. */
export type CallMcpTool = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<CallToolResult>;

const looseObject = z.record(z.string(), z.unknown());

/**
 * An MCP server's tool as a Yeoul tool, under its Yeoul `name`: the model is shown the
 * server's own JSON Schema, arguments are checked against it (zod built from it; a schema
 * zod cannot express is left to the server to check), and `execute` calls the server with
 * the call's signal, so the executor's limits (5 per request, 10 s, capped results) hold.
 * A result the server marks as an error becomes a tool error the model sees.
 */
export function mcpTool(options: {
  server: string;
  name: string;
  tool: Tool;
  permission: Permission;
  call: CallMcpTool;
}): ToolDefinition<Record<string, unknown>> {
  const { server, tool } = options;
  // The draft a schema names means nothing to the model (and some providers refuse the key).
  const { $schema: _draft, ...jsonSchema } = tool.inputSchema as Record<string, unknown>;
  return defineTool({
    name: options.name,
    description: (
      tool.description ??
      tool.title ??
      `${tool.name} (from MCP server ${server})`
    ).slice(0, 1024),
    inputSchema: inputValidator(jsonSchema),
    inputJsonSchema: jsonSchema,
    permission: options.permission,
    async execute(input, context) {
      const result = await options.call(tool.name, input, context.signal);
      const text = resultText(result);
      if (result.isError) {
        throw new McpToolCallError({ server, tool: tool.name, reason: text || 'the call failed' });
      }
      return text;
    },
  });
}

function inputValidator(jsonSchema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<
      Record<string, unknown>
    >;
  } catch {
    return looseObject;
  }
}

/** A call's content as the text the model sees (images and other binaries named, not inlined). */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
      case 'audio':
        return `[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
      case 'resource':
        return 'text' in block.resource
          ? block.resource.text
          : `[resource ${block.resource.uri} (${block.resource.mimeType ?? 'binary'})]`;
      case 'resource_link':
        return `[link ${block.name}: ${block.uri}]`;
      default:
        return '';
    }
  });
  const text = parts.filter((part) => part !== '').join('\n');
  if (text === '' && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return text;
}
