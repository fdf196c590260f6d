import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const reporter = fileURLToPath(new URL('./unfinished-files-reporter.ts', import.meta.url));
const exitAfterTests = fileURLToPath(new URL('./exit-after-tests.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'yeoul-reporter-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `node --test` on `files` (name → source) as `npm test` does, with the reporter. */
function runTests(files: Record<string, string>) {
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  const env = { ...process.env };
  // Not a child of this test run: a run of its own.
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(
    process.execPath,
    [
      '--test',
      `--import=${exitAfterTests}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${reporter}`,
      '--test-reporter-destination=stderr',
      ...Object.keys(files).filter((name) => name.endsWith('.test.mjs')),
    ],
    { cwd: dir, env, encoding: 'utf8' },
  );
}

describe('a test file that stays up after its tests', () => {
  it('is ended two seconds later, with every test of every file reported', () => {
    // Many quick files at once: Node's --test-force-exit loses some of their reports.
    const files: Record<string, string> = {};
    for (let file = 0; file < 24; file += 1) {
      const tests = Array.from({ length: 25 }, (_, test) => `it('t${test}', () => {});`);
      files[`quick-${file}.test.mjs`] = `import { it } from 'node:test';\n${tests.join('\n')}`;
    }
    files['open.test.mjs'] = `import { it } from 'node:test';
it('leaves an interval open', () => { setInterval(() => {}, 1000); });`;
    const started = performance.now();
    const result = runTests(files);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /ℹ tests 601\n/);
    assert.match(result.stdout, /ℹ pass 601\n/);
    assert.ok(performance.now() - started < 60_000, 'the run ended');
    assert.doesNotMatch(result.stderr, /ended before/);
  });
});

describe('unfinished-files reporter', () => {
  it('fails the run naming a file whose process exited 0 in the middle of its tests', () => {
    const result = runTests({
      'cut.test.mjs': `import { it } from 'node:test';
it('first', () => {});
it('exits', () => { process.exit(0); });
it('never runs', () => {});`,
      'whole.test.mjs': `import { it } from 'node:test';
it('fine', () => {});`,
    });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /cut\.test\.mjs: its process ended before its tests did/);
    assert.doesNotMatch(result.stderr, /whole\.test\.mjs/);
  });

  it('leaves a run whose files all finished as the runner says', () => {
    const passing = runTests({
      'whole.test.mjs': `import { it } from 'node:test';\nit('fine', () => {});`,
      // A suite defined in a shared file (its tests name that file), and a test writing to stderr.
      'shared-suite.mjs': `import { it } from 'node:test';
export const suite = () => it('shared', () => { process.stderr.write('a warning\\n'); });`,
      'uses-shared.test.mjs': `import { suite } from './shared-suite.mjs';\nsuite();`,
    });
    assert.equal(passing.status, 0, passing.stdout + passing.stderr);
    assert.doesNotMatch(passing.stderr, /ended before/);
    const failing = runTests({
      'fails.test.mjs': `import { it } from 'node:test';\nit('fails', () => { throw new Error('no'); });`,
    });
    assert.equal(failing.status, 1);
    assert.doesNotMatch(failing.stderr, /ended before/);
  });
});
