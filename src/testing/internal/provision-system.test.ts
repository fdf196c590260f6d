import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  type CommandOutcome,
  type ProvisionResult,
  provisionSystemPrograms,
} from './provision-system.ts';
import { type SystemProgram, type SystemProgramName, systemPrograms } from './system-programs.ts';

const folder = mkdtempSync(join(tmpdir(), 'yeoul-provision-test-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let locks = 0;
function freshLock(): string {
  locks += 1;
  return join(folder, `lock-${locks}`);
}

/**
 * A machine where the programs in `present` are installed: each program is the real entry
 * with `locate` answering from the set, and apt-get (which cannot be run again and again in a
 * test) records its calls and installs a package by adding its program to the set.
 */
function machine(present: Set<SystemProgramName>, options: { aptFails?: boolean } = {}) {
  const calls: string[][] = [];
  let running = 0;
  let overlapped = false;
  const programs: SystemProgram[] = Object.values(systemPrograms).map((program) => ({
    ...program,
    locate: () =>
      present.has(program.name) ? { path: `/usr/bin/${program.name}` } : { missing: 'nowhere' },
  }));
  const runAptGet = async (args: string[]): Promise<CommandOutcome> => {
    calls.push(args);
    running += 1;
    overlapped ||= running > 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
    running -= 1;
    if (options.aptFails) return { code: 100, lastLine: 'E: Unable to locate package chromium' };
    if (args[0] === 'install')
      for (const program of programs)
        if (args.includes(program.packages['apt-get'])) present.add(program.name);
    return { code: 0, lastLine: '' };
  };
  return { calls, programs, runAptGet, overlapped: () => overlapped };
}

const allBut = (...missing: SystemProgramName[]) =>
  new Set(
    Object.keys(systemPrograms).filter((name) => !missing.includes(name as SystemProgramName)),
  ) as Set<SystemProgramName>;

/** Provisions `fake` as root on Debian unless told otherwise; returns the result and the lines. */
async function provision(
  fake: ReturnType<typeof machine>,
  options: {
    environment?: NodeJS.ProcessEnv;
    root?: boolean;
    debian?: boolean;
    lockPath?: string;
  } = {},
) {
  const lines: string[] = [];
  const result = await provisionSystemPrograms({
    programs: fake.programs,
    runAptGet: fake.runAptGet,
    log: (line) => lines.push(line),
    environment: options.environment ?? {},
    machine: { root: options.root ?? true, debian: options.debian ?? true },
    lockPath: options.lockPath ?? freshLock(),
  });
  return { result, lines };
}

describe('provisionSystemPrograms', () => {
  it('does nothing when every program is there', async () => {
    const fake = machine(allBut());
    const { result, lines } = await provision(fake);
    assert.deepEqual(result, { installed: [], missing: [] });
    assert.deepEqual(fake.calls, []);
    assert.deepEqual(lines, []);
  });

  it('as root on Debian, updates once and installs every missing package in one apt-get', async () => {
    const fake = machine(allBut('chromium', 'prometheus'));
    const lockPath = freshLock();
    const { result, lines } = await provision(fake, { lockPath });
    assert.deepEqual(result, { installed: ['chromium', 'prometheus'], missing: [] });
    assert.deepEqual(fake.calls, [
      ['update'],
      ['install', '-y', '--no-install-recommends', 'chromium', 'prometheus'],
    ]);
    assert.match(lines.at(-1) ?? '', /^npm test: installed chromium prometheus in [\d.]+ s$/);
    assert.equal(existsSync(lockPath), false, 'the lock is released');
  });

  it('installs nothing when not root, and prints one line per missing program with its sudo command', async () => {
    const fake = machine(allBut('chromium', 'script'));
    const { result, lines } = await provision(fake, { root: false });
    assert.deepEqual(result, { installed: [], missing: ['chromium', 'script'] });
    assert.deepEqual(fake.calls, []);
    assert.equal(lines.length, 2);
    assert.match(
      lines[0] ?? '',
      /^Chromium is missing \(nowhere\); the browser tests .* Install it: sudo .*chromium.* \[not installed by npm test: not root\]$/,
    );
    assert.match(
      lines[1] ?? '',
      /^script \(util-linux\) is missing .*\[not installed by npm test: not root\]$/,
    );
  });

  it('installs nothing off Debian or with YEOUL_TEST_NO_PROVISION=1', async () => {
    for (const [environment, debian, reason] of [
      [{}, false, 'not Debian'],
      [{ YEOUL_TEST_NO_PROVISION: '1' }, true, 'YEOUL_TEST_NO_PROVISION=1'],
    ] as const) {
      const fake = machine(allBut('prometheus'));
      const { lines } = await provision(fake, { environment, debian });
      assert.deepEqual(fake.calls, []);
      assert.match(
        lines.join('\n'),
        new RegExp(`^Prometheus is missing .*\\[not installed by npm test: ${reason}\\]$`),
      );
    }
  });

  it('leaves a program its override variable points at to that variable', async () => {
    const fake = machine(allBut('chromium', 'prometheus'));
    const { result, lines } = await provision(fake, {
      environment: { YEOUL_CHROMIUM: '/hidden/chromium' },
    });
    assert.deepEqual(fake.calls.at(-1), ['install', '-y', '--no-install-recommends', 'prometheus']);
    assert.deepEqual(result, { installed: ['prometheus'], missing: ['chromium'] });
    assert.match(
      lines.at(-1) ?? '',
      /^Chromium is missing .*\[not installed by npm test: YEOUL_CHROMIUM is set\]$/,
    );
  });

  it('reports a failing apt-get in a line, then each program still missing', async () => {
    const fake = machine(allBut('chromium'), { aptFails: true });
    const { result, lines } = await provision(fake);
    assert.deepEqual(fake.calls, [['update']], 'no install after a failed update');
    assert.deepEqual(result, { installed: [], missing: ['chromium'] });
    assert.ok(
      lines.includes(
        'npm test: apt-get failed with exit code 100: E: Unable to locate package chromium',
      ),
    );
    assert.match(lines.at(-1) ?? '', /\[not installed by npm test: apt-get failed\]$/);
  });

  it('lets one of two concurrent runs install while the other waits, then finds it done', async () => {
    const present = allBut('chromium', 'prometheus');
    const fake = machine(present);
    const lockPath = freshLock();
    const [first, second] = (
      await Promise.all([provision(fake, { lockPath }), provision(fake, { lockPath })])
    ).map(({ result }) => result) as [ProvisionResult, ProvisionResult];
    assert.equal(fake.calls.filter(([command]) => command === 'install').length, 1);
    assert.equal(fake.overlapped(), false, 'apt-get never ran twice at once');
    assert.deepEqual([...first.installed, ...second.installed].sort(), [
      'chromium',
      'chromium',
      'prometheus',
      'prometheus',
    ]);
    assert.deepEqual([first.missing, second.missing], [[], []]);
  });

  it('takes over the lock of a run that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const lockPath = freshLock();
    mkdirSync(lockPath);
    writeFileSync(join(lockPath, 'pid'), String(dead));
    const fake = machine(allBut('prometheus'));
    const { result } = await provision(fake, { lockPath });
    assert.deepEqual(result, { installed: ['prometheus'], missing: [] });
    assert.equal(existsSync(lockPath), false);
  });
});
