import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runYeoul } from '../src/testing/internal/index.ts';

const projectRoot = join(import.meta.dirname, '..');

/** `npm test`'s node options (everything between `node` and the test file patterns). */
function npmTestOptions(): string[] {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
  const words = String(manifest.scripts.test).split(/\s+/);
  assert.equal(words[0], 'node');
  return words.slice(1).filter((word) => word.startsWith('--'));
}

describe('npm test on a machine without Chromium (YEOUL_CHROMIUM hides it)', () => {
  it('says what is missing before the tests, then fails the browser test within 30 s in that line, even with a server left running', async () => {
    const started = Date.now();
    const run = await runYeoul(
      [...npmTestOptions(), join('test', 'fixtures', 'missing-browser.fixture.ts')],
      {
        command: [process.execPath],
        env: { YEOUL_CHROMIUM: '/hidden/chromium', YEOUL_TEST_NO_PROVISION: '1' },
        timeoutMs: 60_000,
      },
    );
    const seconds = (Date.now() - started) / 1000;
    assert.notEqual(run.code, null, 'the run ended by itself, not by the 60 s kill');
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.ok(seconds < 30, `took ${seconds} s`);
    const line =
      'Chromium is missing (YEOUL_CHROMIUM=/hidden/chromium is not an executable); the browser tests (test/web-*.int.test.ts) need it. Install it: ';
    const setupLines = run.stderr.split('\n').filter((text) => text.startsWith('Chromium'));
    assert.equal(setupLines.length, 1, run.stderr);
    assert.match(
      setupLines[0] ?? '',
      /Install it: .*chromium \(or set YEOUL_CHROMIUM to its path\) \[not installed by npm test: YEOUL_TEST_NO_PROVISION=1\]$/,
    );
    assert.ok(setupLines[0]?.startsWith(line));
    assert.ok(run.stdout.includes(`MissingProgramError]: ${line}`), run.stdout);
  });
});
