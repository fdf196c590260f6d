import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { yeoulRoot } from '../core/index.ts';
import { PackFailedError } from './errors/pack-failed-error.ts';

/** Whether this Yeoul runs from a clone of its repository (sources and history), not a package. */
export function runsFromClone(root = yeoulRoot): boolean {
  return existsSync(join(root, '.git')) && existsSync(join(root, 'src', 'cli.ts'));
}

/**
 * Packs the clone Yeoul runs from (`npm pack`, whose prepack step builds dist/) into
 * `destination` and resolves to the tarball's file name, e.g. `yeoul-0.1.0.tgz`.
 * @example
 * const tarball = await packClone(projectDir); // then depend on `file:./${tarball}`
 */
export async function packClone(destination: string, root = yeoulRoot): Promise<string> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['pack', '--pack-destination', destination, '--json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).catch((error: Error) => {
    throw new PackFailedError({ root, reason: error.message });
  });
  // The build's own output comes first on stdout; npm's JSON report is the last thing in it.
  const report = /\[\s*\{[\s\S]*\}\s*\]\s*$/.exec(stdout)?.[0];
  const filename = report
    ? (JSON.parse(report) as Array<{ filename?: string }>)[0]?.filename
    : undefined;
  if (code !== 0 || filename === undefined) {
    const said = stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${code}`;
    throw new PackFailedError({ root, reason: said });
  }
  return filename;
}
