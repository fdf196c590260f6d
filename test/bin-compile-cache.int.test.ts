import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const repository = join(import.meta.dirname, '..');
const temporary = mkdtempSync(join(tmpdir(), 'yeoul-bin-cache-'));
after(() => rmSync(temporary, { recursive: true, force: true }));

// Preloaded before the entry point: says at exit whether Node loaded its TypeScript stripper.
const report = `data:text/javascript,process.on('exit', () => process.stderr.write('STRIPPER ' + process.moduleLoadList.filter((name) => name.includes('amaro')).length + '\\n'))`;

/** How many times `node <entry> --help` loaded the stripper (0 or 1), with its own cache folder. */
function stripperLoads(entry: string): number {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temporary };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  delete env.NODE_TEST_CONTEXT;
  const { stderr } = spawnSync(
    process.execPath,
    [`--import=${report}`, join(repository, entry), '--help'],
    { env, encoding: 'utf8' },
  );
  return Number(/STRIPPER (\d+)/.exec(stderr)?.[1]);
}

describe('bin/yeoul.js (what `npm start` runs)', () => {
  it('turns the compile cache on before any TypeScript: a second start loads no stripper', () => {
    stripperLoads('bin/yeoul.js'); // fills the cache in the temporary folder
    assert.equal(stripperLoads('bin/yeoul.js'), 0);
    // Started from src/cli.ts, the entry point is read before it can turn the cache on.
    assert.equal(stripperLoads('src/cli.ts'), 1);
  });
});
