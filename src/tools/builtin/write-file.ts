import { constants, type FileHandle, mkdir, open, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { formatSize } from './read-file.ts';
import { describeFileError } from './workspace/describe-file-error.ts';
import {
  confirmOpenedInside,
  isInside,
  resolveWorkspacePath,
} from './workspace/resolve-workspace-path.ts';
import { workspacePath } from './workspace/workspace-path.ts';

/** Largest content write_file accepts, in UTF-8 bytes. */
export const maxWriteBytes = 100 * 1024;

/**
 * The `write_file` tool: creates or replaces a text file (at most 100 KB) in the
 * workspace folder, creating folders on the way. Permission `ask` by default: a write waits
 * for a person's approval (it cannot reach outside the workspace either); the server may
 * lift that (`YEOUL_TOOL_PERMISSIONS=write_file:allow`).
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Creates or replaces a UTF-8 text file (at most 100 KB) in the workspace folder, creating ' +
    'missing folders. The path is relative to the workspace, like "notes/todo.txt".',
  inputSchema: z.object({
    path: workspacePath.describe('Path relative to the workspace, like "notes/todo.txt"'),
    content: z.string().describe('The whole text of the file, at most 100 KB'),
  }),
  permission: 'ask',
  timeoutMs: 5_000,
  async execute({ path, content }, { env }) {
    const size = Buffer.byteLength(content, 'utf8');
    if (size > maxWriteBytes) {
      throw new Error(
        `the content is ${formatSize(size)}; write_file writes at most ${formatSize(maxWriteBytes)}`,
      );
    }
    const resolved = await resolveWorkspacePath(env.workspaceDir, path);
    if (!resolved.ok) throw new Error(resolved.problem);
    const { absolute, display, root } = resolved.path;
    if (absolute === root)
      throw new Error('the path names the workspace folder itself; add a file name');

    const folder = dirname(absolute);
    try {
      await mkdir(folder, { recursive: true });
      // A folder on the way could have been swapped for a link since the check above.
      if (!isInside(root, await realpath(folder))) {
        throw new Error(`"${display}" leads outside the workspace through a symbolic link`);
      }
    } catch (error) {
      if (error instanceof Error && !('code' in error)) throw error;
      throw new Error(describeFileError(error, 'write', display));
    }

    let handle: FileHandle;
    try {
      // O_NOFOLLOW: never write through a final symbolic link; truncate only after checking.
      const flags =
        constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
      handle = await open(absolute, flags, 0o644);
    } catch (error) {
      throw new Error(describeFileError(error, 'write', display));
    }
    try {
      // Before anything is truncated or written.
      await confirmOpenedInside(handle, root, display);
      const stats = await handle.stat();
      if (!stats.isFile()) throw new Error(`"${display}" is not a regular file`);
      // A second hard link could be a file outside the workspace.
      if (stats.nlink > 1)
        throw new Error(`"${display}" has several hard links; refusing to write it`);
      const replaced = stats.size > 0;
      await handle.truncate(0);
      await handle.writeFile(content, 'utf8');
      return `${replaced ? 'Replaced' : 'Wrote'} "${display}" (${formatSize(size)})`;
    } catch (error) {
      if (error instanceof Error && !('code' in error)) throw error;
      throw new Error(describeFileError(error, 'write', display));
    } finally {
      await handle.close();
    }
  },
});
