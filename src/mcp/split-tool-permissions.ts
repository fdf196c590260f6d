import type { Permission } from '../tools/index.ts';
import { mcpToolPrefix } from './tool-names.ts';

const permissions = new Set<string>(['allow', 'ask', 'deny']);

/** `YEOUL_TOOL_PERMISSIONS` split between built-in tools and the tools of MCP servers. */
export interface SplitToolPermissions {
  /** The entries for built-in tools, in the setting's own format. */
  builtin: string;
  /** The permissions of MCP tools, by Yeoul name (`NAME__tool`). */
  mcp: Map<string, Permission>;
  problems: string[];
}

/**
 * Splits `YEOUL_TOOL_PERMISSIONS` (`name:allow|ask|deny,…`): entries naming a tool of a
 * configured MCP server (`NAME__tool`) are kept for when that server connects (its tools
 * do not exist yet at start); the rest go to the built-in tools' check as they are.
 * @example
 * splitToolPermissions('write_file:allow,everything__echo:allow', ['everything']);
 * // → {builtin: 'write_file:allow', mcp: Map {everything__echo → allow}, problems: []}
 */
export function splitToolPermissions(
  setting: string | undefined,
  servers: string[],
): SplitToolPermissions {
  const prefixes = servers.map((server) => mcpToolPrefix(server));
  const builtin: string[] = [];
  const mcp = new Map<string, Permission>();
  const problems: string[] = [];
  for (const entry of (setting ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [name = '', permission = '', ...rest] = entry.split(':').map((part) => part.trim());
    if (rest.length > 0 || !prefixes.some((prefix) => name.startsWith(prefix))) {
      builtin.push(entry);
    } else if (!permissions.has(permission)) {
      problems.push(
        `YEOUL_TOOL_PERMISSIONS: "${permission}" for ${name} is not one of allow, ask, deny`,
      );
    } else {
      mcp.set(name, permission as Permission);
    }
  }
  return { builtin: builtin.join(','), mcp, problems };
}
