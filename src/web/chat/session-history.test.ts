import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { HistoryStep } from '../api/types.ts';
import { forgetSessionHistory, sessionHistory } from './session-history.ts';

const step = {
  runId: 'r1',
  node: 'input',
  kind: 'input',
  update: {},
  at: '2026-01-01T00:00:00.000Z',
} as HistoryStep;

describe('sessionHistory', () => {
  let fail = false;
  const fetched = mock.fn(async (_path: string) =>
    fail
      ? Response.json({ error: { code: 'internal', message: 'down' } }, { status: 500 })
      : Response.json({ steps: [step] }),
  );
  beforeEach(() => {
    fail = false;
    fetched.mock.resetCalls();
    forgetSessionHistory();
    mock.method(globalThis, 'fetch', fetched);
  });
  afterEach(() => mock.restoreAll());

  it('asks once per session and runs version, in flight or done', async () => {
    const [first, second] = await Promise.all([sessionHistory('s 1', 1), sessionHistory('s 1', 1)]);
    assert.deepEqual(first, [step]);
    assert.equal(second, first);
    assert.deepEqual(await sessionHistory('s 1', 1), [step]);
    assert.equal(fetched.mock.callCount(), 1);
    assert.equal(fetched.mock.calls[0]?.arguments[0], '/api/sessions/s%201/history');
  });

  it('asks again after a run, for another session, or once forgotten', async () => {
    await sessionHistory('a', 1);
    await sessionHistory('a', 2);
    await sessionHistory('b', 2);
    forgetSessionHistory();
    await sessionHistory('b', 2);
    assert.equal(fetched.mock.callCount(), 4);
  });

  it('does not keep a failure', async () => {
    fail = true;
    await assert.rejects(sessionHistory('a', 1), { code: 'internal' });
    fail = false;
    assert.deepEqual(await sessionHistory('a', 1), [step]);
    assert.equal(fetched.mock.callCount(), 2);
  });
});
