import type { Dirent } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { formatSize } from './read-file.ts';
import { describeFileError } from './workspace/describe-file-error.ts';
import { resolveWorkspacePath } from './workspace/resolve-workspace-path.ts';
import { workspacePath } from './workspace/workspace-path.ts';

/** Most entries list_files shows. */
export const maxListedEntries = 200;

/** Entries read before sorting; past it they are only counted. */
const maxCollectedEntries = 5_000;

/**
 * The `list_files` tool: the files and folders in a workspace folder, sorted, with sizes.
 * Permission `allow`: listing stays inside the workspace; the server may tighten it.
 */
export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'Lists the files and folders in a folder of the workspace (folders end with "/", files ' +
    'show their size; at most 200 entries). The path is relative to the workspace; "." is the top.',
  inputSchema: z.object({
    path: workspacePath
      .default('.')
      .describe('Folder relative to the workspace, like "notes"; default "." (the top)'),
  }),
  permission: 'allow',
  timeoutMs: 5_000,
  // 200 entries with sizes; the default cut (4 000 characters) would hide some.
  maxResultChars: 16_000,
  async execute({ path }, { env }) {
    const resolved = await resolveWorkspacePath(env.workspaceDir, path);
    if (!resolved.ok) throw new Error(resolved.problem);
    const { absolute, display, exists } = resolved.path;
    if (!exists) throw new Error(`"${display}" does not exist`);

    const collected: Dirent[] = [];
    let total = 0;
    try {
      for await (const entry of await opendir(absolute)) {
        total += 1;
        if (collected.length < maxCollectedEntries) collected.push(entry);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR')
        throw new Error(`"${display}" is a file, not a folder; use read_file`);
      throw new Error(describeFileError(error, 'list', display));
    }
    if (total === 0) return `"${display}" is empty`;

    const shown = collected
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
      .slice(0, maxListedEntries);
    const lines = await Promise.all(shown.map((entry) => describeEntry(absolute, entry)));
    const header = `"${display}" (${total} ${total === 1 ? 'entry' : 'entries'}):`;
    const more = total - shown.length;
    const footer = more > 0 ? [`… and ${more} more entries not shown`] : [];
    return [header, ...lines, ...footer].join('\n');
  },
});

async function describeEntry(folder: string, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (entry.isSymbolicLink()) return `${entry.name} (symbolic link)`;
  if (!entry.isFile()) return `${entry.name} (special file)`;
  try {
    return `${entry.name}  ${formatSize((await lstat(join(folder, entry.name))).size)}`;
  } catch {
    return entry.name;
  }
}
