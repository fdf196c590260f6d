import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { mcpServerNamePattern, mcpToolPrefix } from './tool-names.ts';
import type { McpServerEntry } from './types.ts';

const permission = z.enum(['allow', 'ask', 'deny']);
const stringMap = z.record(z.string(), z.string());

const stdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'the command is empty'),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: z.string().min(1).optional(),
  permission: permission.default('ask'),
  disabled: z.literal(false).optional(),
});

const httpEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }),
  headers: stringMap.default({}),
  permission: permission.default('ask'),
  disabled: z.literal(false).optional(),
});

/** The file's shape: Claude Desktop's and Cursor's `mcpServers`, with an optional `permission`. */
export const mcpConfigSchema = z.object({
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** The servers of a configuration file, or every problem found in it. */
export type McpConfigReading =
  | { ok: true; servers: McpServerEntry[] }
  | { ok: false; problems: string[] };

/**
 * Reads `YEOUL_MCP_CONFIG`: a JSON file `{"mcpServers": {NAME: {command, args?, env?} |
 * {url, headers?}}}`; an entry may add `"permission": "allow"|"ask"|"deny"` (default `ask`)
 * and `"disabled": true` skips it. Unset = no servers.
 * @example
 * const reading = await readMcpConfig('./mcp.json');
 * if (!reading.ok) console.error(reading.problems.join('\n'));
 */
export async function readMcpConfig(path: string | undefined): Promise<McpConfigReading> {
  if (path === undefined) return { ok: true, servers: [] };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    return { ok: false, problems: [`YEOUL_MCP_CONFIG: cannot read ${path}: ${reason}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [`YEOUL_MCP_CONFIG: ${path} is not valid JSON: ${(error as Error).message}`],
    };
  }
  return parseMcpConfig(json, path);
}

/** Checks a parsed configuration; `origin` names it in problems. */
export function parseMcpConfig(json: unknown, origin?: string): McpConfigReading {
  const where = (path: PropertyKey[]) =>
    `YEOUL_MCP_CONFIG${origin ? ` (${origin})` : ''}: ${path.map(String).join('.') || '(file)'}`;
  const parsed = mcpConfigSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`),
    };
  }
  const servers: McpServerEntry[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed.data.mcpServers)) {
    if (value.disabled === true) continue;
    const path = ['mcpServers', name];
    if (!mcpServerNamePattern.test(name)) {
      problems.push(`${where(path)}: server names are 1–40 letters, digits, _ and -`);
      continue;
    }
    const schema = 'command' in value ? stdioEntry : 'url' in value ? httpEntry : undefined;
    if (schema === undefined) {
      problems.push(
        `${where(path)}: needs "command" (a program to start) or "url" (a Streamable HTTP endpoint)`,
      );
      continue;
    }
    const server = schema.safeParse(value);
    if (!server.success) {
      for (const issue of server.error.issues) {
        problems.push(`${where([...path, ...issue.path])}: ${issue.message}`);
      }
      continue;
    }
    const data = server.data;
    servers.push(
      'command' in data
        ? {
            name,
            transport: 'stdio',
            command: data.command,
            args: data.args,
            env: data.env,
            ...(data.cwd ? { cwd: data.cwd } : {}),
            permission: data.permission,
          }
        : {
            name,
            transport: 'http',
            url: data.url,
            headers: data.headers,
            permission: data.permission,
          },
    );
  }
  const byPrefix = new Map<string, string>();
  for (const server of servers) {
    const prefix = mcpToolPrefix(server.name);
    const other = byPrefix.get(prefix);
    if (other !== undefined) {
      problems.push(
        `${where(['mcpServers', server.name])}: its tools would be named like those of "${other}" (${prefix}…); rename one`,
      );
    }
    byPrefix.set(prefix, server.name);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, servers };
}
