import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDebian, thisMachine } from './install-command.ts';
import {
  missingProgramMessage,
  type SystemProgram,
  type SystemProgramName,
  systemPrograms,
} from './system-programs.ts';

/** A command's exit code and the last line it printed. */
export interface CommandOutcome {
  code: number;
  lastLine: string;
}

/** How `provisionSystemPrograms` sees and changes the machine (tests pass their own). */
export interface ProvisionOptions {
  /** Where each line of the report goes (default: stderr). */
  log?: (line: string) => void;
  /** Read for YEOUL_TEST_NO_PROVISION and the programs' override variables. */
  environment?: NodeJS.ProcessEnv;
  /** Whether this process may install Debian packages (default: this machine's answer). */
  machine?: { root: boolean; debian: boolean };
  /** The programs to provide (default: every entry of `systemPrograms`). */
  programs?: SystemProgram[];
  /** Runs `apt-get` with these arguments (default: the real one, output to `aptLogPath`). */
  runAptGet?: (args: string[]) => Promise<CommandOutcome>;
  /** The lock that keeps concurrent runs from installing at once. */
  lockPath?: string;
}

/** What the tests will find: the programs installed now and the ones still missing. */
export interface ProvisionResult {
  installed: SystemProgramName[];
  missing: SystemProgramName[];
}

/** The file the real `apt-get`'s output goes to. */
export const aptLogPath = join(tmpdir(), 'yeoul-provision-apt.log');
const defaultLockPath = join(tmpdir(), 'yeoul-provision.lock');
const aptTimeoutMs = 15 * 60_000;

/**
 * Provides the system programs the tests start (Chromium, Prometheus, PostgreSQL, `script`):
 * when some are missing and this process is root on Debian, installs their Debian packages
 * (`apt-get update` once, then one `apt-get install`), one run at a time under a lock. Never
 * throws: it logs one line per program still missing, naming the command that installs it, and
 * the tests that need it then fail with the same line. YEOUL_TEST_NO_PROVISION=1 installs
 * nothing; a program whose override variable (YEOUL_CHROMIUM, PROMETHEUS_BIN) is set is never
 * installed, as the variable names the binary to use.
 * @example
 * await provisionSystemPrograms(); // `npm test`'s global setup
 */
export async function provisionSystemPrograms(
  options: ProvisionOptions = {},
): Promise<ProvisionResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const environment = options.environment ?? process.env;
  const programs = options.programs ?? Object.values(systemPrograms);
  const missingNow = () => programs.filter((program) => 'missing' in program.locate());
  const missing = missingNow();
  if (missing.length === 0) return { installed: [], missing: [] };

  const machine = options.machine ?? { root: process.getuid?.() === 0, debian: isDebian() };
  const reason =
    environment.YEOUL_TEST_NO_PROVISION === '1'
      ? 'YEOUL_TEST_NO_PROVISION=1'
      : !machine.debian
        ? 'not Debian'
        : !machine.root
          ? 'not root'
          : undefined;
  const installable = missing.filter(
    (program) => program.override === undefined || !environment[program.override],
  );
  if (reason === undefined && installable.length > 0) {
    const runAptGet = options.runAptGet ?? runRealAptGet;
    await withLock(options.lockPath ?? defaultLockPath, log, async () => {
      // Another run may have installed them while this one waited for the lock.
      const still = installable.filter((program) => 'missing' in program.locate());
      if (still.length === 0) return;
      const packages = still.map((program) => program.packages['apt-get']);
      const started = Date.now();
      log(`npm test: installing ${packages.join(' ')} with apt-get (the tests start them)…`);
      const update = await runAptGet(['update']);
      const outcome =
        update.code === 0
          ? await runAptGet(['install', '-y', '--no-install-recommends', ...packages])
          : update;
      if (outcome.code !== 0)
        log(`npm test: apt-get failed with exit code ${outcome.code}: ${outcome.lastLine}`);
      else log(`npm test: installed ${packages.join(' ')} in ${secondsSince(started)} s`);
    });
  }

  const stillMissing = missingNow();
  for (const program of stillMissing) {
    const located = program.locate();
    if (!('missing' in located)) continue;
    const why =
      reason ?? (installable.includes(program) ? 'apt-get failed' : `${program.override} is set`);
    const target = { manager: thisMachine().manager, root: machine.root };
    log(
      `${missingProgramMessage(program, located.missing, target)} [not installed by npm test: ${why}]`,
    );
  }
  return {
    installed: missing.filter((program) => !stillMissing.includes(program)).map(({ name }) => name),
    missing: stillMissing.map(({ name }) => name),
  };
}

const secondsSince = (started: number) => ((Date.now() - started) / 1000).toFixed(1);

/** Runs `work` while holding a lock folder; waits for a live holder, takes over a dead one's. */
async function withLock(
  path: string,
  log: (line: string) => void,
  work: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + aptTimeoutMs + 60_000;
  let told = false;
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (holderIsGone(path)) {
        rmSync(path, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        log(`npm test: gave up waiting for another run's install (lock ${path})`);
        return;
      }
      if (!told) log(`npm test: waiting for another run that is installing packages (${path})…`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await work();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}

function holderIsGone(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
  } catch {
    // Made but not yet written (a moment), or left by a crash: gone once it is old.
    try {
      return Date.now() - statSync(path).mtimeMs > 10_000;
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The real apt-get, non-interactive, waiting for dpkg's lock, its output appended to a file. */
function runRealAptGet(args: string[]): Promise<CommandOutcome> {
  const output = openSync(aptLogPath, 'a');
  return new Promise((resolve) => {
    const child = spawn('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
      stdio: ['ignore', output, output],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: aptTimeoutMs,
    });
    let finished = false;
    const finish = (code: number, fallback: string) => {
      if (finished) return;
      finished = true;
      closeSync(output);
      const lines = readFileSync(aptLogPath, 'utf8').trim().split('\n');
      resolve({ code, lastLine: `${lines.at(-1) ?? fallback} (full output: ${aptLogPath})` });
    };
    child.once('error', (error) => finish(127, error.message));
    child.once('close', (code, signal) => finish(code ?? 1, `ended by ${signal}`));
  });
}
