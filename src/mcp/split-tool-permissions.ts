import { type Permission, parseToolPermissions } from '../tools/index.ts';
import { mcpToolPrefix } from './tool-names.ts';

/** `YEOUL_TOOL_PERMISSIONS` split between built-in tools and the tools of MCP servers. */
export interface SplitToolPermissions {
  /** The well-formed entries for built-in tools, in the setting's format (`name:permission,…`). */
  builtin: string;
  /** The permissions of MCP tools, by Yeoul name (`NAME__tool`). */
  mcp: Map<string, Permission>;
  /** Malformed entries and bad permissions, of any tool (`parseToolPermissions`). */
  problems: string[];
}

/**
 * Splits `YEOUL_TOOL_PERMISSIONS` (`name:allow|ask|deny,…`): entries naming a tool of a
 * configured MCP server (`NAME__tool`) are kept for when that server connects (its tools
 * do not exist yet at start); the rest go to the built-in tools' check.
 * @example
 * splitToolPermissions('write_file:allow,everything__echo:allow', ['everything']);
 * // → {builtin: 'write_file:allow', mcp: Map {everything__echo → allow}, problems: []}
 */
export function splitToolPermissions(
  setting: string | undefined,
  servers: string[],
): SplitToolPermissions {
  const prefixes = servers.map((server) => mcpToolPrefix(server));
  const { entries, problems } = parseToolPermissions(setting);
  const builtin: string[] = [];
  const mcp = new Map<string, Permission>();
  for (const [name, permission] of entries) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) mcp.set(name, permission);
    else builtin.push(`${name}:${permission}`);
  }
  return { builtin: builtin.join(','), mcp, problems };
}
