import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isExecutable } from './install-command.ts';

/** Where PostgreSQL's server programs are, and whom they must run as. */
export interface PostgresBinaries {
  /** The folder holding `initdb` and `postgres`. */
  directory: string;
  initdb: string;
  postgres: string;
  /** Set when this process is root: PostgreSQL refuses root, so it runs as this user. */
  runAs: { uid: number; gid: number } | undefined;
}

const debianRoot = '/usr/lib/postgresql';

/** Debian's versioned folders, newest first, then every folder on PATH. */
function candidateFolders(): string[] {
  let versions: string[] = [];
  try {
    versions = readdirSync(debianRoot)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    // No Debian layout: PATH may still have the programs (Homebrew, Fedora, Arch).
  }
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...versions.map((version) => join(debianRoot, version, 'bin')), ...onPath];
}

function userIds(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * Finds `initdb` and `postgres` (in `directory` when given), and the user to run them as;
 * says in words where it looked when they are missing (`startPostgresServer` turns that into
 * a one-line error naming the install command: tests never skip).
 */
export function locatePostgresBinaries(directory?: string): PostgresBinaries | { missing: string } {
  const folders = directory === undefined ? candidateFolders() : [directory];
  const found = folders.find(
    (folder) => isExecutable(join(folder, 'initdb')) && isExecutable(join(folder, 'postgres')),
  );
  if (found === undefined) {
    return {
      missing: `initdb and postgres not found in ${folders.length > 0 ? folders.join(', ') : 'any folder'}`,
    };
  }
  const root = process.getuid?.() === 0;
  const runAs = root ? userIds('postgres') : undefined;
  if (root && runAs === undefined) {
    return {
      missing: `this process is root, which PostgreSQL refuses, and there is no "postgres" user to run it as`,
    };
  }
  return {
    directory: found,
    initdb: join(found, 'initdb'),
    postgres: join(found, 'postgres'),
    runAs,
  };
}
