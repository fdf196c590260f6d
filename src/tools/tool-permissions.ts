import type { ToolRegistry } from './registry.ts';
import type { Permission } from './types.ts';

const permissions = new Set<Permission>(['allow', 'ask', 'deny']);

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
  const problems: string[] = [];
  const changes: Array<[string, Permission]> = [];
  for (const entry of (setting ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [name = '', permission = '', ...rest] = entry.split(':').map((part) => part.trim());
    if (rest.length > 0 || name === '' || permission === '') {
      problems.push(`YEOUL_TOOL_PERMISSIONS: "${entry}" is not name:allow|ask|deny`);
    } else if (!permissions.has(permission as Permission)) {
      problems.push(
        `YEOUL_TOOL_PERMISSIONS: "${permission}" for ${name} is not one of allow, ask, deny`,
      );
    } else if (registry.get(name) === undefined) {
      problems.push(
        `YEOUL_TOOL_PERMISSIONS: there is no tool "${name}" (tools: ${registry.names().join(', ')})`,
      );
    } else {
      changes.push([name, permission as Permission]);
    }
  }
  if (problems.length === 0) {
    for (const [name, permission] of changes) registry.setPermission(name, permission);
  }
  return problems;
}
