import type { ToolRegistry } from './registry.ts';
import type { Permission } from './types.ts';

const permissions = new Set<Permission>(['allow', 'ask', 'deny']);

/** `YEOUL_TOOL_PERMISSIONS` read: its well-formed entries, and the problems of the others. */
export interface ParsedToolPermissions {
  /** Tool name and permission, in the setting's order. */
  entries: Array<[string, Permission]>;
  problems: string[];
}

/**
 * Reads `YEOUL_TOOL_PERMISSIONS` (`name:allow|ask|deny,…`): every malformed entry and bad
 * permission is a problem, listed in the setting's order. `check`, when given, may refuse a
 * well-formed entry's tool name with a problem of its own (listed in the entry's place).
 * @example
 * parseToolPermissions('write_file:allow, calculator : deny,oops');
 * // → {entries: [['write_file', 'allow'], ['calculator', 'deny']],
 * //    problems: ['YEOUL_TOOL_PERMISSIONS: "oops" is not name:allow|ask|deny']}
 */
export function parseToolPermissions(
  setting: string | undefined,
  check?: (name: string) => string | undefined,
): ParsedToolPermissions {
  const entries: Array<[string, Permission]> = [];
  const problems: string[] = [];
  for (const entry of (setting ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [name = '', permission = '', ...rest] = entry.split(':').map((part) => part.trim());
    if (rest.length > 0 || name === '' || permission === '') {
      problems.push(`YEOUL_TOOL_PERMISSIONS: "${entry}" is not name:allow|ask|deny`);
      continue;
    }
    if (!permissions.has(permission as Permission)) {
      problems.push(
        `YEOUL_TOOL_PERMISSIONS: "${permission}" for ${name} is not one of allow, ask, deny`,
      );
      continue;
    }
    const refused = check?.(name);
    if (refused === undefined) entries.push([name, permission as Permission]);
    else problems.push(refused);
  }
  return { entries, problems };
}

/**
 * Reads `YEOUL_TOOL_PERMISSIONS` (`name:allow|ask|deny,…`) and applies it to the
 * registry. Returns every problem (an unknown tool, a bad permission, a malformed entry)
 * instead of applying half of a bad setting.
 * @example
 * applyToolPermissions(registry, 'write_file:allow,python_repl:ask'); // → []
 */
export function applyToolPermissions(
  registry: ToolRegistry,
  setting: string | undefined,
): string[] {
  const { entries, problems } = parseToolPermissions(setting, (name) =>
    registry.get(name) === undefined
      ? `YEOUL_TOOL_PERMISSIONS: there is no tool "${name}" (tools: ${registry.names().join(', ')})`
      : undefined,
  );
  if (problems.length === 0) {
    for (const [name, permission] of entries) registry.setPermission(name, permission);
  }
  return problems;
}
