import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MissingProgramError } from './errors/missing-program-error.ts';
import { requireSystemProgram, systemPrograms } from './system-programs.ts';

const folder = mkdtempSync(join(tmpdir(), 'yeoul-programs-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function executable(name: string): string {
  const path = join(folder, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('requireSystemProgram', () => {
  it('fails with one line naming what is missing, who needs it and the install command', () => {
    assert.throws(
      () => requireSystemProgram('prometheus', '/nonexistent/prometheus'),
      (error: unknown) => {
        assert.ok(error instanceof MissingProgramError);
        assert.match(
          error.message,
          /^Prometheus is missing \(no executable at \/nonexistent\/prometheus\); the query_metrics tests need it\. Install it: .*prometheus.* \(or set PROMETHEUS_BIN to its path\)$/,
        );
        assert.doesNotMatch(error.message, /\n/);
        assert.equal(error.stack, `MissingProgramError: ${error.message}`);
        return true;
      },
    );
  });

  it('takes the binary its override variable names, and says so when it is not there', () => {
    const chromium = executable('my-chromium');
    process.env.YEOUL_CHROMIUM = chromium;
    try {
      assert.equal(requireSystemProgram('chromium'), chromium);
      process.env.YEOUL_CHROMIUM = join(folder, 'hidden-chromium');
      assert.throws(
        () => requireSystemProgram('chromium'),
        /^MissingProgramError: Chromium is missing \(YEOUL_CHROMIUM=.*hidden-chromium is not an executable\); the browser tests .* Install it: .*chromium/,
      );
    } finally {
      delete process.env.YEOUL_CHROMIUM;
    }
  });

  it('finds a program on PATH, and names where it looked when it is not', () => {
    const saved = process.env.PATH;
    try {
      process.env.PATH = folder;
      assert.throws(
        () => requireSystemProgram('script'),
        /script \(util-linux\) is missing \(no script on PATH\); the terminal .* Install it: .*bsdutils/,
      );
      const script = executable('script');
      assert.equal(requireSystemProgram('script'), script);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('says PostgreSQL is missing from a folder without initdb and postgres', () => {
    assert.deepEqual(systemPrograms.postgresql.locate(folder), {
      missing: `initdb and postgres not found in ${folder}`,
    });
  });
});
