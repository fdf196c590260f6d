import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadOnce } from './load-once.ts';

describe('loadOnce', () => {
  it('loads once and hands every caller the same value, concurrent callers included', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads += 1;
      return { loaded: loads };
    });
    const [a, b] = await Promise.all([load(), load()]);
    assert.equal(a, b);
    assert.equal(await load(), a);
    assert.equal(loads, 1);
  });

  it('tries again after a load that failed', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('not installed');
      return 'ok';
    });
    await assert.rejects(load(), /not installed/);
    assert.equal(await load(), 'ok');
    assert.equal(loads, 2);
  });
});
