import { createHash } from 'node:crypto';

/** What a server name in `mcpServers` may be (it becomes the prefix of its tools' names). */
export const mcpServerNamePattern = /^[A-Za-z0-9_-]{1,40}$/;

/** The rule every tool name in Yeoul's registry follows. */
const toolNamePattern = /^[a-z][a-z0-9_]{0,63}$/;
const maxLength = 64;

/** Lowercase snake_case: other characters become `_`, runs of `_` one. */
function snake(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The name an MCP server's tool has in Yeoul: `SERVER__tool`, lowercased and snake_cased
 * to the registry's rule (`^[a-z][a-z0-9_]{0,63}$`); a name that would run past 64
 * characters keeps its start and ends in a short hash of the original, so two long names
 * stay apart.
 * @example
 * mcpToolName('everything', 'get-sum'); // → 'everything__get_sum'
 */
export function mcpToolName(server: string, tool: string): string {
  let prefix = snake(server) || 'mcp';
  if (!/^[a-z]/.test(prefix)) prefix = `mcp_${prefix}`;
  const name = `${prefix}__${snake(tool) || 'tool'}`;
  if (name.length <= maxLength && toolNamePattern.test(name)) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, maxLength - hash.length - 1).replace(/_+$/, '')}_${hash}`;
}

/** The prefix (`SERVER__`) the names of a server's tools start with. */
export function mcpToolPrefix(server: string): string {
  return mcpToolName(server, 'x').slice(0, -1);
}
