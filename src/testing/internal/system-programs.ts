import { platform } from 'node:os';
import { MissingProgramError } from './errors/missing-program-error.ts';
import {
  findOnPath,
  type InstallTarget,
  installCommand,
  isExecutable,
  type PackageNames,
  thisMachine,
} from './install-command.ts';
import { locatePostgresBinaries } from './postgres-binaries.ts';

/** Where a program was found, or (in words) where it was looked for. */
export type Located = { path: string } | { missing: string };

/** A program of the operating system (not an npm package) that some tests start. */
export interface SystemProgram {
  /** Key: `chromium`, `prometheus`, `postgresql`, `script`. */
  name: SystemProgramName;
  /** What a person calls it. */
  title: string;
  /** The package that provides it, per package manager. */
  packages: PackageNames;
  /** The environment variable that points at it instead of the usual places. */
  override?: string;
  /** Which tests need it (for the message). */
  neededBy: string;
  /** Finds it (at `explicitPath` when given); never throws. */
  locate(explicitPath?: string): Located;
}

export const systemProgramNames = ['chromium', 'prometheus', 'postgresql', 'script'] as const;
export type SystemProgramName = (typeof systemProgramNames)[number];

/** Checks `explicitPath`, else `$override`, else the usual `paths` and `names` on PATH. */
function locateExecutable(
  explicitPath: string | undefined,
  override: string | undefined,
  paths: string[],
  names: string[],
): Located {
  if (explicitPath !== undefined)
    return isExecutable(explicitPath)
      ? { path: explicitPath }
      : { missing: `no executable at ${explicitPath}` };
  const chosen = override === undefined ? undefined : process.env[override];
  if (chosen)
    return isExecutable(chosen)
      ? { path: chosen }
      : { missing: `${override}=${chosen} is not an executable` };
  const found = paths.find(isExecutable) ?? names.map((name) => findOnPath(name)).find(Boolean);
  if (found !== undefined) return { path: found };
  const onPath = `${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ` : ''}${names.at(-1)} on PATH`;
  return { missing: paths.length > 0 ? `no ${paths.join(', ')}, no ${onPath}` : `no ${onPath}` };
}

const macApplications =
  platform() === 'darwin'
    ? [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      ]
    : [];

/** Every system program the tests start, with how to find and install it. */
export const systemPrograms: Record<SystemProgramName, SystemProgram> = {
  chromium: {
    name: 'chromium',
    title: 'Chromium',
    packages: {
      'apt-get': 'chromium',
      dnf: 'chromium',
      pacman: 'chromium',
      apk: 'chromium',
      zypper: 'chromium',
      brew: '--cask chromium',
    },
    override: 'YEOUL_CHROMIUM',
    neededBy: 'the browser tests (test/web-*.int.test.ts)',
    locate: (explicitPath) =>
      locateExecutable(
        explicitPath,
        'YEOUL_CHROMIUM',
        ['/usr/bin/chromium', ...macApplications],
        ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'],
      ),
  },
  prometheus: {
    name: 'prometheus',
    title: 'Prometheus',
    packages: {
      'apt-get': 'prometheus',
      dnf: 'golang-github-prometheus',
      pacman: 'prometheus',
      apk: 'prometheus',
      zypper: 'golang-github-prometheus-prometheus',
      brew: 'prometheus',
    },
    override: 'PROMETHEUS_BIN',
    neededBy: 'the query_metrics tests',
    locate: (explicitPath) =>
      locateExecutable(explicitPath, 'PROMETHEUS_BIN', ['/usr/bin/prometheus'], ['prometheus']),
  },
  postgresql: {
    name: 'postgresql',
    title: 'PostgreSQL',
    packages: {
      'apt-get': 'postgresql',
      dnf: 'postgresql-server',
      pacman: 'postgresql',
      apk: 'postgresql',
      zypper: 'postgresql-server',
      brew: 'postgresql@17',
    },
    neededBy: 'the PostgreSQL tests',
    locate: (explicitPath) => {
      const located = locatePostgresBinaries(explicitPath);
      return 'directory' in located ? { path: located.directory } : located;
    },
  },
  script: {
    name: 'script',
    title: 'script (util-linux)',
    packages: {
      'apt-get': 'bsdutils',
      dnf: 'util-linux-script',
      pacman: 'util-linux',
      apk: 'util-linux-misc',
      zypper: 'util-linux',
    },
    neededBy: 'the terminal (pseudo-terminal) CLI tests',
    locate: (explicitPath) => locateExecutable(explicitPath, undefined, [], ['script']),
  },
};

/**
 * One line: what is missing, which tests need it, where it was looked for and the command
 * that installs it.
 */
export function missingProgramMessage(
  program: SystemProgram,
  missing: string,
  target: InstallTarget = thisMachine(),
): string {
  const alternative = program.override ? ` (or set ${program.override} to its path)` : '';
  return (
    `${program.title} is missing (${missing}); ${program.neededBy} need it. ` +
    `Install it: ${installCommand([program.packages], target)}${alternative}`
  );
}

/**
 * The path of a system program (at `explicitPath` when given); throws a one-line
 * `MissingProgramError` naming the install command when it is not there.
 * @example
 * const chromium = requireSystemProgram('chromium');
 */
export function requireSystemProgram(name: SystemProgramName, explicitPath?: string): string {
  const program = systemPrograms[name];
  const located = program.locate(explicitPath);
  if ('missing' in located)
    throw new MissingProgramError(missingProgramMessage(program, located.missing));
  return located.path;
}
