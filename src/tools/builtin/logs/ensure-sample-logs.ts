import { randomUUID } from 'node:crypto';
import { access, copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The bundled sample logs of a small shop (see samples/README.md for what they hold). */
export const sampleLogsDir = join(import.meta.dirname, 'samples');

/**
 * Copies the bundled sample logs into `directory` when it does not exist yet (a first
 * start), so that `query_logs` has something to read with no configuration. An existing
 * folder — the user's own logs, or an emptied one — is never touched. The copy is made in a
 * temporary folder beside it and renamed into place, so no reader sees half of it. Returns
 * whether it created the folder.
 * @example
 * await ensureSampleLogs('./data/logs');
 */
export async function ensureSampleLogs(directory: string): Promise<boolean> {
  if (await exists(directory)) return false;
  await mkdir(dirname(directory), { recursive: true });
  const temporary = join(
    dirname(directory),
    `.${basename(directory)}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`,
  );
  try {
    await mkdir(temporary);
    for (const file of await readdir(sampleLogsDir)) {
      if (/\.(?:log|jsonl)$/.test(file))
        await copyFile(join(sampleLogsDir, file), join(temporary, file));
    }
    try {
      await rename(temporary, directory);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another process created the folder first: theirs stands.
      if (code === 'EEXIST' || code === 'ENOTEMPTY') return false;
      throw error;
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
