import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';

/** The environment variable that names the MCP servers whose tools join Yeoul's. */
export const mcpVariables = z.object({
  YEOUL_MCP_CONFIG: environmentVariable(z.string().optional(), {
    meaning:
      'path of a JSON file `{"mcpServers": {NAME: {command, args?, env?} | {url, headers?}, …}}` (the format Claude Desktop and Cursor use; an entry may add `"permission"`) whose tools join Yeoul’s as `NAME__tool`; wins over the config file’s `mcpServers`',
    default: 'unset = no MCP servers',
  }),
});

/** The MCP variables as read: trimmed, an empty value unset. */
export type McpVariables = z.output<typeof mcpVariables>;
