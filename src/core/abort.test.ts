import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { scopedSignal } from './abort.ts';

describe('scopedSignal', () => {
  it('aborts with the parent, with the parent’s reason', () => {
    const parent = new AbortController();
    const scope = scopedSignal(parent.signal, 60_000);
    parent.abort(new Error('client left'));
    assert.equal(scope.signal.aborted, true);
    assert.equal((scope.signal.reason as Error).message, 'client left');
    assert.equal(scope.timedOut, false);
    scope.release();
  });

  it('aborts at its time limit with a TimeoutError', async () => {
    const scope = scopedSignal(undefined, 5);
    await new Promise((resolve) => scope.signal.addEventListener('abort', resolve));
    assert.equal(scope.timedOut, true);
    assert.equal((scope.signal.reason as Error).name, 'TimeoutError');
  });

  it('is aborted from the start when the parent already is', () => {
    const parent = new AbortController();
    parent.abort(new Error('gone'));
    assert.equal(scopedSignal(parent.signal).signal.aborted, true);
  });

  it('leaves nothing behind once released: no timer, no listener on the parent', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const parent = new AbortController();
      const scopes = Array.from({ length: 100 }, () => scopedSignal(parent.signal, 60_000));
      for (const scope of scopes) scope.release();
      mock.timers.tick(60_000);
      parent.abort();
      assert.ok(
        scopes.every((scope) => !scope.signal.aborted && !scope.timedOut),
        'released signals neither time out nor follow the parent',
      );
      const kept = scopedSignal(undefined, 10);
      mock.timers.tick(10);
      assert.equal(kept.timedOut, true, 'an unreleased one still times out');
    } finally {
      mock.timers.reset();
    }
  });
});
