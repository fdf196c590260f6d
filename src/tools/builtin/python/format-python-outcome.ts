import { PythonRunError } from '../../errors/python-run-error.ts';
import type { PythonCallEnd } from './python-worker.ts';
import type { CapturedText, PythonFailure, PythonRunOutcome } from './types.ts';

/** Limits the texts below mention, so the model knows what it ran into. */
export interface PythonLimits {
  timeoutMs: number;
  memoryLimitMb: number;
  maxOutputChars: number;
}

const beforeStopChars = 300;

/**
 * The tool's answer for a finished call: labelled `stdout:`, `stderr:` and `result:`
 * sections (only those with content), together at most `maxOutputChars` characters; each
 * cut section says how much was left out. Failures become a thrown `PythonRunError`.
 */
export function formatPythonEnd(end: PythonCallEnd, limits: PythonLimits): string {
  if (end.status === 'crashed')
    throw new PythonRunError({ failure: 'crashed', detail: end.problem });
  if (end.status !== 'finished') {
    const seconds = limits.timeoutMs / 1000;
    const detail =
      end.status === 'timed-out'
        ? `Python code timed out after ${seconds} s and was stopped; make it faster or do less per call`
        : 'the Python call was cancelled';
    const failure = end.status === 'timed-out' ? 'timeout' : 'cancelled';
    throw new PythonRunError({ failure, detail: detail + printedBefore(end.outcome) });
  }
  const { outcome } = end;
  if (outcome.failure !== undefined || outcome.interrupted) {
    const failure = outcome.failure ?? { type: 'KeyboardInterrupt', message: '', frames: [] };
    throw new PythonRunError({
      failure: 'exception',
      pythonType: failure.type,
      detail: describeFailure(failure, limits) + printedBefore(outcome),
    });
  }
  const sections: Array<[label: string, captured: CapturedText]> = [];
  if (outcome.stdout.text !== '' || outcome.stdout.cut > 0)
    sections.push(['stdout', outcome.stdout]);
  if (outcome.stderr.text !== '' || outcome.stderr.cut > 0)
    sections.push(['stderr', outcome.stderr]);
  if (outcome.result !== undefined) sections.push(['result', outcome.result]);
  if (sections.length === 0) return '(no output: print() what you want to see)';
  const shares = fairShares(
    sections.map(([, captured]) => captured.text.length),
    limits.maxOutputChars,
  );
  return sections
    .map(([label, captured], index) => {
      const kept = shares[index] ?? 0;
      const cut = captured.text.length - kept + captured.cut;
      const text = captured.text.slice(0, kept);
      const note = cut > 0 ? `\n…[${label} cut: ${cut} more characters]` : '';
      return label === 'result' ? `result: ${text}${note}` : `${label}:\n${text}${note}`;
    })
    .join('\n');
}

/** `ZeroDivisionError: division by zero — at line 4: f() → line 2, in f: return 1 / 0` */
function describeFailure(failure: PythonFailure, limits: PythonLimits): string {
  let message = failure.message;
  if (failure.type === 'MemoryError') {
    message = `${message || 'out of memory'} (the sandbox allows ${limits.memoryLimitMb} MiB)`;
  }
  const head = message === '' ? failure.type : `${failure.type}: ${message}`;
  return failure.frames.length === 0 ? head : `${head} — at ${failure.frames.join(' → ')}`;
}

function printedBefore(outcome: PythonRunOutcome | undefined): string {
  const printed = `${outcome?.stdout.text ?? ''}${outcome?.stderr.text ?? ''}`.trim();
  if (printed === '') return '';
  const shown =
    printed.length > beforeStopChars ? `${printed.slice(0, beforeStopChars)}…` : printed;
  return ` | printed before that: ${shown}`;
}

/** Splits `budget` among texts of these lengths: short ones keep everything, long ones share the rest. */
function fairShares(lengths: number[], budget: number): number[] {
  const shares = lengths.map(() => 0);
  const order = lengths
    .map((length, index) => ({ length, index }))
    .sort((a, b) => a.length - b.length);
  let left = budget;
  order.forEach(({ length, index }, position) => {
    const share = Math.min(length, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}
