import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServeProcess } from '../src/testing/internal/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-malloc-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts `yeoul serve` or `yeoul dev` with `env`; the variables its process serves with. */
async function servedEnvironment(
  env: Record<string, string>,
  command: 'serve' | 'dev' = 'serve',
): Promise<Map<string, string>> {
  const server = await startServeProcess(dataDir, env, ['--no-sample'], command);
  try {
    // The process started is the one serving: restarted in place, not a child of its own.
    const environ = readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0');
    return new Map(
      environ.filter(Boolean).map((entry) => {
        const at = entry.indexOf('=');
        return [entry.slice(0, at), entry.slice(at + 1)] as const;
      }),
    );
  } finally {
    await server.stop();
  }
}

describe('yeoul serve and malloc arenas', { skip: process.platform !== 'linux' }, () => {
  it('serve and dev run with two malloc arenas when MALLOC_ARENA_MAX is not set', async () => {
    const saved = process.env.MALLOC_ARENA_MAX;
    delete process.env.MALLOC_ARENA_MAX;
    try {
      for (const command of ['serve', 'dev'] as const) {
        const served = await servedEnvironment({ YEOUL_TEST_MARK: 'kept' }, command);
        assert.equal(served.get('MALLOC_ARENA_MAX'), '2', command);
        assert.equal(served.get('YEOUL_TEST_MARK'), 'kept', 'the rest of the environment is kept');
      }
    } finally {
      if (saved !== undefined) process.env.MALLOC_ARENA_MAX = saved;
    }
  });

  it('keeps a MALLOC_ARENA_MAX of the user’s', async () => {
    const served = await servedEnvironment({ MALLOC_ARENA_MAX: '6' });
    assert.equal(served.get('MALLOC_ARENA_MAX'), '6');
  });
});
