import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PythonRunError } from '../../errors/python-run-error.ts';
import { formatPythonEnd, type PythonLimits } from './format-python-outcome.ts';
import type { PythonCallEnd } from './python-worker.ts';
import type { PythonRunOutcome } from './types.ts';

const limits: PythonLimits = { timeoutMs: 10_000, memoryLimitMb: 256, maxOutputChars: 100 };
const none = { text: '', cut: 0 };

function finished(fields: Partial<PythonRunOutcome>): PythonCallEnd {
  return {
    status: 'finished',
    outcome: { stdout: none, stderr: none, interrupted: false, ...fields },
  };
}

function failureOf(end: PythonCallEnd): PythonRunError {
  try {
    formatPythonEnd(end, limits);
  } catch (error) {
    assert.ok(error instanceof PythonRunError);
    return error;
  }
  assert.fail('expected a PythonRunError');
}

describe('formatPythonEnd', () => {
  it('labels only the sections that have content', () => {
    assert.equal(
      formatPythonEnd(finished({ stdout: { text: '4\n', cut: 0 } }), limits),
      'stdout:\n4\n',
    );
    assert.equal(
      formatPythonEnd(
        finished({ stderr: { text: 'warn\n', cut: 0 }, result: { text: '42', cut: 0 } }),
        limits,
      ),
      'stderr:\nwarn\n\nresult: 42',
    );
    assert.match(formatPythonEnd(finished({}), limits), /^\(no output/);
  });

  it('keeps the total within maxOutputChars and says how much was cut', () => {
    const text = formatPythonEnd(
      finished({ stdout: { text: 'x'.repeat(100), cut: 900 }, result: { text: "'ok'", cut: 0 } }),
      limits,
    );
    assert.match(text, /^stdout:\nx{96}\n…\[stdout cut: 904 more characters\]\nresult: 'ok'$/);
  });

  it('shares the budget fairly between two long sections', () => {
    const text = formatPythonEnd(
      finished({
        stdout: { text: 'o'.repeat(100), cut: 0 },
        stderr: { text: 'e'.repeat(100), cut: 0 },
      }),
      limits,
    );
    assert.equal(
      text,
      `stdout:\n${'o'.repeat(50)}\n…[stdout cut: 50 more characters]\n` +
        `stderr:\n${'e'.repeat(50)}\n…[stderr cut: 50 more characters]`,
    );
  });

  it('turns an exception into its type, message and user-code lines', () => {
    const error = failureOf(
      finished({
        stdout: { text: 'started\n', cut: 0 },
        failure: {
          type: 'ZeroDivisionError',
          message: 'division by zero',
          frames: ['line 4: f()', 'line 2, in f: return 1 / 0'],
        },
      }),
    );
    assert.equal(error.code, 'python_exception');
    assert.equal(error.pythonType, 'ZeroDivisionError');
    assert.equal(
      error.message,
      'ZeroDivisionError: division by zero — at line 4: f() → line 2, in f: return 1 / 0 | printed before that: started',
    );
  });

  it('names the memory limit on a MemoryError', () => {
    const error = failureOf(
      finished({ failure: { type: 'MemoryError', message: '', frames: [] } }),
    );
    assert.equal(error.message, 'MemoryError: out of memory (the sandbox allows 256 MiB)');
  });

  it('says "timed out", "cancelled" or why Python crashed', () => {
    const timedOut = failureOf({ status: 'timed-out' });
    assert.equal(timedOut.code, 'python_timeout');
    assert.match(timedOut.message, /^Python code timed out after 10 s/);
    assert.equal(failureOf({ status: 'cancelled' }).code, 'python_cancelled');
    const crashed = failureOf({
      status: 'crashed',
      problem: 'the Python worker ran out of memory',
    });
    assert.deepEqual(
      [crashed.code, crashed.message],
      ['python_crashed', 'the Python worker ran out of memory'],
    );
  });

  it('treats a KeyboardInterrupt the code raised itself as an exception', () => {
    assert.equal(failureOf(finished({ interrupted: true })).message, 'KeyboardInterrupt');
  });
});
