import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { snapshotFile } from './python-worker.ts';

const sandboxModule = new URL('./python-sandbox.ts', import.meta.url).href;
// Each run is its own process, so nothing is shared through the in-memory snapshot.
const script = `
import { PythonSandbox } from ${JSON.stringify(sandboxModule)};
const sandbox = new PythonSandbox({ cacheDir: process.argv[2] });
const end = await sandbox.run('print(6 * 7)');
await sandbox.close();
console.log(JSON.stringify(end));
`;

async function runInNewProcess(cacheDir: string): Promise<unknown> {
  // A file, not --eval: worker threads inherit the process's flags, --eval included.
  const entry = join(cacheDir, '..', 'run.mjs');
  await writeFile(entry, script);
  const { stdout } = await promisify(execFile)(process.execPath, [entry, cacheDir], {
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

const printed42 = {
  status: 'finished',
  outcome: {
    interrupted: false,
    stdout: { text: '42\n', cut: 0 },
    stderr: { text: '', cut: 0 },
  },
};

describe('python_repl snapshot kept between runs (cacheDir)', () => {
  let cacheDir: string;
  before(async () => {
    cacheDir = join(await mkdtemp(join(tmpdir(), 'yeoul-python-cache-')), 'cache');
  });
  after(() => rm(join(cacheDir, '..'), { recursive: true, force: true }));

  it('keeps the first run’s snapshot and starts a later run from it', async () => {
    assert.deepEqual(await runInNewProcess(cacheDir), printed42);
    const kept = await stat(snapshotFile(cacheDir));
    assert.ok(kept.size > 1_000_000, `a snapshot of ${kept.size} bytes`);
    // A later run that loads the kept snapshot makes no new one: the file stays the same.
    assert.deepEqual(await runInNewProcess(cacheDir), printed42);
    const after = await stat(snapshotFile(cacheDir));
    assert.equal(after.ino, kept.ino);
    assert.equal(after.mtimeMs, kept.mtimeMs);
  });

  it('replaces a damaged snapshot, and the call still runs', async () => {
    await writeFile(snapshotFile(cacheDir), 'not a snapshot'.repeat(1000));
    assert.deepEqual(await runInNewProcess(cacheDir), printed42);
    assert.ok((await stat(snapshotFile(cacheDir))).size > 1_000_000);
  });
});
