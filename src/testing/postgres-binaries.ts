import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

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

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

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

function userIds(name: string): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      `This process runs as root and PostgreSQL refuses to; no "${name}" user exists to run it as (Debian's postgresql package creates one)`,
    );
  }
}

/**
 * Finds `initdb` and `postgres` (in `directory` when given), and the user to run them as.
 * Throws a message saying what to install when they are missing: tests never skip.
 */
export function findPostgresBinaries(directory?: string): PostgresBinaries {
  const folders = directory === undefined ? candidateFolders() : [directory];
  const found = folders.find(
    (folder) => isExecutable(join(folder, 'initdb')) && isExecutable(join(folder, 'postgres')),
  );
  if (found === undefined) {
    throw new Error(
      `PostgreSQL server programs (initdb, postgres) not found in ${folders.length > 0 ? folders.join(', ') : 'any folder'}; ` +
        "install Debian's postgresql package (apt-get install postgresql; .ci/run does this)",
    );
  }
  return {
    directory: found,
    initdb: join(found, 'initdb'),
    postgres: join(found, 'postgres'),
    runAs: process.getuid?.() === 0 ? userIds('postgres') : undefined,
  };
}
