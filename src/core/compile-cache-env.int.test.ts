import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-compile-cache-'));
after(() => rmSync(directory, { recursive: true, force: true }));

describe('withCompileCache', () => {
  it("gives a worker the entry point's compile cache: a warm start loads no TypeScript stripper", () => {
    // A worker of TypeScript, started by a process that enabled its cache the way bin/yeoul.js
    // does; the worker says whether Node loaded its stripper (amaro) to read it.
    writeFileSync(
      join(directory, 'worker.ts'),
      `import { parentPort } from 'node:worker_threads';
const loaded: string[] = process.moduleLoadList.filter((name) => name.includes('amaro'));
parentPort?.postMessage(loaded.length);
`,
    );
    writeFileSync(
      join(directory, 'main.mjs'),
      `import { enableCompileCache } from 'node:module';
import { Worker } from 'node:worker_threads';
enableCompileCache(${JSON.stringify(join(directory, 'cache'))});
const { withCompileCache } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'compile-cache-env.ts')).href)});
const env = process.argv[2] === 'with' ? withCompileCache() : process.env;
const worker = new Worker(new URL('./worker.ts', import.meta.url), { env });
worker.once('message', (count) => { console.log(JSON.stringify({ count, cache: env.NODE_COMPILE_CACHE ?? null })); process.exit(0); });
`,
    );
    const run = (mode: string) => {
      const env = { ...process.env };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const output = execFileSync(process.execPath, [join(directory, 'main.mjs'), mode], {
        env,
        encoding: 'utf8',
      });
      return JSON.parse(output.trim().split('\n').at(-1) as string) as {
        count: number;
        cache: string | null;
      };
    };
    run('with'); // fills the cache
    assert.deepEqual(run('with'), { count: 0, cache: join(directory, 'cache') });
    // Without it, the worker strips its TypeScript again (what every worker did).
    assert.equal(run('without').count, 1);
  });

  it('leaves an environment that already names a cache as it is', async () => {
    const { withCompileCache } = await import('./compile-cache-env.ts');
    const named = { NODE_COMPILE_CACHE: '/somewhere' };
    assert.equal(withCompileCache(named), named);
  });
});
