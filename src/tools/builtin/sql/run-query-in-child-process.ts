import { fork } from 'node:child_process';
import { siblingModule, withCompileCache } from '../../../core/index.ts';
import type { QueryOutcome, QueryRequest } from './execute-read-only-query.ts';
import type { QueryProcessMessage } from './query-process.ts';

const entry = siblingModule(import.meta.url, 'query-process');

/**
 * Runs one query in a child process and kills it (SIGKILL) after `timeoutMs` or when
 * `signal` fires. A worker thread would not do: terminating a thread does not stop SQLite
 * inside a long statement, a killed process does. Failures come back as outcomes.
 */
export function runQueryInChildProcess(
  request: QueryRequest,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<QueryOutcome> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ ok: false, problem: 'the query was cancelled' });
    const child = fork(entry, [], {
      execArgv: ['--max-old-space-size=128', '--disable-warning=ExperimentalWarning'],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      // Each query is a new process: from the cache it starts without stripping TypeScript.
      env: withCompileCache(),
    });
    let settled = false;
    const settle = (outcome: QueryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(outcome);
    };
    const onAbort = () => settle({ ok: false, problem: 'the query was cancelled' });
    const timer = setTimeout(() => {
      settle({
        ok: false,
        problem: `the query ran longer than ${options.timeoutMs / 1000} s and was stopped; add a LIMIT or simplify it`,
      });
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('message', (outcome: QueryOutcome) => settle(outcome));
    child.on('error', (error) =>
      settle({ ok: false, problem: `the query could not run: ${error.message}` }),
    );
    child.once('exit', (code, signal) => {
      settle({
        ok: false,
        problem: `the query process stopped unexpectedly (${signal ?? `exit code ${code}`})`,
      });
    });
    const message: QueryProcessMessage = { request, killAfterMs: options.timeoutMs + 2_000 };
    child.send(message);
  });
}
