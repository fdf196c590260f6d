import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The package managers an install command can be written for, in the order they are tried. */
export const packageManagers = ['apt-get', 'dnf', 'pacman', 'apk', 'zypper', 'brew'] as const;
export type PackageManager = (typeof packageManagers)[number];

/** What a package is called by each package manager (Debian's name is required). */
export type PackageNames = { 'apt-get': string } & Partial<Record<PackageManager, string>>;

/** The machine an install command is written for. */
export interface InstallTarget {
  /** The first package manager on PATH, if any. */
  manager: PackageManager | undefined;
  /** Root needs no `sudo`. */
  root: boolean;
}

/** True when `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable called `name` in a folder of PATH, if any. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const folder of path.split(delimiter).filter(Boolean)) {
    const candidate = join(folder, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** This machine: its package manager and whether this process is root. */
export function thisMachine(): InstallTarget {
  return {
    manager: packageManagers.find((manager) => findOnPath(manager) !== undefined),
    root: process.getuid?.() === 0,
  };
}

/** True on Debian and its derivatives (Ubuntu, …), where `apt-get` installs packages. */
export function isDebian(): boolean {
  return existsSync('/etc/debian_version') && findOnPath('apt-get') !== undefined;
}

/**
 * The shell command that installs `packages` on `target`, e.g.
 * `sudo apt-get update && sudo apt-get install -y chromium`; Debian's when the machine's
 * package manager is unknown or has no name for one of them.
 */
export function installCommand(packages: PackageNames[], target = thisMachine()): string {
  const manager =
    target.manager !== undefined &&
    packages.every((names) => names[target.manager as PackageManager])
      ? target.manager
      : 'apt-get';
  const names = packages.map((entry) => entry[manager] as string).join(' ');
  const sudo = target.root || manager === 'brew' ? '' : 'sudo ';
  switch (manager) {
    case 'apt-get':
      return `${sudo}apt-get update && ${sudo}apt-get install -y ${names}`;
    case 'dnf':
      return `${sudo}dnf install -y ${names}`;
    case 'pacman':
      return `${sudo}pacman -S --noconfirm ${names}`;
    case 'apk':
      return `${sudo}apk add ${names}`;
    case 'zypper':
      return `${sudo}zypper install -y ${names}`;
    case 'brew':
      return `brew install ${names}`;
  }
}
