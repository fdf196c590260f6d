import { type FileHandle, lstat, mkdir, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A requested path that stays inside the workspace, with every symbolic link resolved. */
export interface WorkspacePath {
  /** The workspace folder, symbolic links resolved. */
  root: string;
  /** Where the path really is: inside `root`, no symbolic link left in it. */
  absolute: string;
  /** `absolute` relative to `root` (`.` for the root), for messages. */
  display: string;
  /** False when the path (or a folder on the way) does not exist yet. */
  exists: boolean;
}

/** A resolved path, or why the request is refused. */
export type WorkspacePathOutcome =
  | { ok: true; path: WorkspacePath }
  | { ok: false; problem: string };

/**
 * Resolves `requested` against the workspace folder, creating the folder if needed. Refuses
 * NUL bytes, absolute paths, `..` that leaves the folder, and symbolic links (anywhere on the
 * path) that lead outside it or nowhere: the real path of the deepest part that exists must
 * lie inside the real workspace folder.
 */
export async function resolveWorkspacePath(
  workspaceDir: string,
  requested: string,
): Promise<WorkspacePathOutcome> {
  if (requested.includes('\0')) return refuse('the path contains a NUL byte');
  if (isAbsolute(requested) || /^[a-zA-Z]:|^[\\/]/.test(requested)) {
    return refuse(
      `absolute paths are not allowed ("${requested}"); give a path relative to the workspace, like notes/todo.txt`,
    );
  }
  await mkdir(workspaceDir, { recursive: true });
  const root = await realpath(workspaceDir);
  const target = resolve(root, requested);
  if (!isInside(root, target)) return refuse(`"${requested}" leaves the workspace`);

  let existing = target;
  const missing: string[] = [];
  while (existing !== root && !(await exists(existing))) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  let real: string;
  try {
    real = await realpath(existing);
  } catch {
    return refuse(`"${requested}" goes through a symbolic link that points nowhere`);
  }
  if (!isInside(root, real)) {
    return refuse(`"${requested}" leads outside the workspace through a symbolic link`);
  }
  const absolute = join(real, ...missing);
  return {
    ok: true,
    path: {
      root,
      absolute,
      display: relative(root, absolute) || '.',
      exists: missing.length === 0,
    },
  };
}

/**
 * Checks, on the open file itself, that it lies inside the workspace: a folder on the way
 * swapped for a symbolic link after resolveWorkspacePath looked is caught here. Linux says
 * where an open file is (/proc/self/fd); where it cannot be asked, the earlier check and
 * O_NOFOLLOW on the last part are what there is.
 */
export async function confirmOpenedInside(
  handle: FileHandle,
  root: string,
  display: string,
): Promise<void> {
  let opened: string;
  try {
    opened = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return;
  }
  if (!isInside(root, opened)) {
    throw new Error(`"${display}" leads outside the workspace through a symbolic link`);
  }
}

/** Whether `path` is `root` or lies below it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function refuse(problem: string): WorkspacePathOutcome {
  return { ok: false, problem };
}

/** Whether something (a dangling symbolic link included) is at `path`. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}
