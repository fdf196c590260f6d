import { constants, type FileHandle, open } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { describeFileError } from './workspace/describe-file-error.ts';
import { confirmOpenedInside, resolveWorkspacePath } from './workspace/resolve-workspace-path.ts';
import { workspacePath } from './workspace/workspace-path.ts';

/** Largest file read_file returns, in bytes. */
export const maxReadBytes = 100 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The `read_file` tool: a UTF-8 text file of at most 100 KB from the workspace folder.
 * Permission `allow`: reading stays inside the workspace; the server may tighten it.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Reads a UTF-8 text file (at most 100 KB) from the workspace folder. ' +
    'The path is relative to the workspace, like "notes/todo.txt"; use list_files to find files.',
  inputSchema: z.object({
    path: workspacePath.describe('Path relative to the workspace, like "notes/todo.txt"'),
  }),
  permission: 'allow',
  timeoutMs: 5_000,
  // The whole file the limit allows; the agent's token budget decides what the model sees.
  maxResultChars: maxReadBytes,
  async execute({ path }, { env }) {
    const resolved = await resolveWorkspacePath(env.workspaceDir, path);
    if (!resolved.ok) throw new Error(resolved.problem);
    const { absolute, display, exists, root } = resolved.path;
    if (!exists) {
      throw new Error(`"${display}" does not exist; use list_files to see what is there`);
    }
    let handle: FileHandle;
    try {
      // No following a link swapped in since the check; no blocking on a FIFO.
      handle = await open(
        absolute,
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
    } catch (error) {
      throw new Error(describeFileError(error, 'read', display));
    }
    try {
      await confirmOpenedInside(handle, root, display);
      const stats = await handle.stat();
      if (stats.isDirectory()) {
        throw new Error(
          `"${display}" is a folder, not a file; use list_files to see what is in it`,
        );
      }
      if (!stats.isFile()) throw new Error(`"${display}" is not a regular file`);
      if (stats.size > maxReadBytes) {
        throw new Error(
          `"${display}" is ${formatSize(stats.size)}; read_file reads files of at most ${formatSize(maxReadBytes)}`,
        );
      }
      const bytes = await readAtMost(handle, maxReadBytes + 1);
      if (bytes.length > maxReadBytes) {
        throw new Error(`"${display}" grew past ${formatSize(maxReadBytes)} while being read`);
      }
      if (bytes.includes(0))
        throw new Error(`"${display}" is a binary file; read_file reads text only`);
      try {
        return utf8.decode(bytes);
      } catch {
        throw new Error(
          `"${display}" is not UTF-8 text (a binary file?); read_file reads text only`,
        );
      }
    } finally {
      await handle.close();
    }
  },
});

/** `1536` → `1.5 KB`; `512` → `512 bytes`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}

async function readAtMost(handle: FileHandle, limit: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(limit);
  let length = 0;
  while (length < limit) {
    const { bytesRead } = await handle.read(buffer, length, limit - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}
