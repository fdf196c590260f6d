import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MathWorker } from './math-worker.ts';

const exponential = 'f(x) = x > 0 ? f(x - 1) + f(x - 1) : 1; f(40)';

describe('MathWorker', () => {
  const worker = new MathWorker({ evaluationTimeoutMs: 500, memoryLimitMb: 64 });
  after(() => worker.close());

  it('evaluates in a thread and answers many waiting calls in order', async () => {
    const outcomes = await Promise.all(
      ['1 + 1', '2 * 3', 'abc', 'sqrt(81)'].map((e) => worker.evaluate(e)),
    );
    assert.deepEqual(outcomes, [
      { ok: true, result: '2' },
      { ok: true, result: '6' },
      { ok: false, problem: 'Undefined symbol abc' },
      { ok: true, result: '9' },
    ]);
  });

  it('stops a runaway calculation at its time limit and serves the next call', async () => {
    const started = performance.now();
    const [runaway, next] = await Promise.all([
      worker.evaluate(exponential),
      worker.evaluate('40 + 2'),
    ]);
    assert.deepEqual(runaway, {
      ok: false,
      problem: 'the calculation took longer than 0.5 s and was stopped; simplify the expression',
    });
    assert.deepEqual(next, { ok: true, result: '42' });
    // The limit plus one restart of the thread (loading mathjs), with room for a slow machine.
    assert.ok(performance.now() - started < 10_000);
  });

  it('fails a runaway calculation alone when it is sent in one batch with others', async () => {
    // Queued in the same tick, the four go to the thread in one message.
    const outcomes = await Promise.all(
      ['1 + 1', exponential, '2 * 3', 'sqrt(81)'].map((e) => worker.evaluate(e)),
    );
    assert.deepEqual(outcomes, [
      { ok: true, result: '2' },
      {
        ok: false,
        problem: 'the calculation took longer than 0.5 s and was stopped; simplify the expression',
      },
      { ok: true, result: '6' },
      { ok: true, result: '9' },
    ]);
  });

  it('keeps its thread when a quick calculation is cancelled (a client left mid-request)', async () => {
    const own = new MathWorker();
    try {
      await own.evaluate('1');
      const controller = new AbortController();
      const cancelled = own.evaluate('2 + 2', controller.signal);
      controller.abort();
      assert.deepEqual(await cancelled, { ok: false, problem: 'the calculation was cancelled' });
      assert.deepEqual(await own.evaluate('3 + 3'), { ok: true, result: '6' });
      assert.equal(own.threadStarts, 1, 'no restart (it costs every caller ~0.2 s)');
    } finally {
      await own.close();
    }
  });

  it('drops the answer of a call cancelled while later in the batch being evaluated', async () => {
    const controller = new AbortController();
    const first = worker.evaluate('sum(1:200000)');
    const cancelled = worker.evaluate('3 + 4', controller.signal);
    const last = worker.evaluate('5 + 6');
    controller.abort();
    assert.deepEqual(await cancelled, { ok: false, problem: 'the calculation was cancelled' });
    assert.deepEqual(await first, { ok: true, result: '20000100000' });
    assert.deepEqual(await last, { ok: true, result: '11' });
  });

  it('stops a calculation that needs too much memory', async () => {
    const outcome = await worker.evaluate('zeros(20000, 20000)');
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.problem, /more than 64 MiB of memory|took longer/);
    assert.deepEqual(await worker.evaluate('1 + 1'), { ok: true, result: '2' });
  });

  it('stops a huge range or a long big-number factorial', async () => {
    for (const expression of ['sum(1:1e9)', 'factorial(bignumber(1e7))']) {
      const outcome = await worker.evaluate(expression);
      assert.equal(outcome.ok, false, expression);
      assert.match(outcome.ok ? '' : outcome.problem, /took longer|memory/);
    }
  });

  it('stops a long-running calculation with its thread when its signal fires', async () => {
    const controller = new AbortController();
    const slow = new MathWorker({ evaluationTimeoutMs: 60_000 });
    try {
      await slow.evaluate('1');
      setTimeout(() => controller.abort(), 300);
      const outcome = await slow.evaluate(exponential, controller.signal);
      assert.deepEqual(outcome, { ok: false, problem: 'the calculation was cancelled' });
      assert.deepEqual(await slow.evaluate('1 + 1'), { ok: true, result: '2' });
      assert.equal(slow.threadStarts, 2, 'the runaway was stopped, not left to its time limit');
    } finally {
      await slow.close();
    }
  });

  it('answers a cancelled call at once without running it', async () => {
    const outcome = await worker.evaluate('1 + 1', AbortSignal.abort());
    assert.deepEqual(outcome, { ok: false, problem: 'the calculation was cancelled' });
  });
});
