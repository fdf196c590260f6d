import { randomUUID } from 'node:crypto';
import { access, link, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const seedFile = new URL('./demo-database.sql', import.meta.url);

/**
 * Creates the demo database (teams, employees, budgets) at `path` unless a file is there
 * already. It is built under a temporary name and then linked into place, so no reader ever
 * sees a half-written database and an existing file is never replaced. Returns whether it
 * created the file.
 * @example
 * await ensureDemoDatabase('./data/demo.sqlite');
 */
export async function ensureDemoDatabase(path: string): Promise<boolean> {
  if (await exists(path)) return false;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`;
  try {
    const seed = await readFile(seedFile, 'utf8');
    const database = new DatabaseSync(temporary);
    try {
      database.exec('BEGIN');
      database.exec(seed);
      database.exec('COMMIT');
    } finally {
      database.close();
    }
    return await moveIntoPlace(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Links without replacing (EEXIST: someone else was first); renames where links fail. */
async function moveIntoPlace(temporary: string, path: string): Promise<boolean> {
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
  }
  if (await exists(path)) return false;
  await rename(temporary, path);
  return true;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
