// Preloaded into every test file's process by `npm test` (`--import`), in place of Node's
// `--test-force-exit`: that option exits as soon as the file's tests end, and the report still
// on its way to the runner through the pipe can be lost — tests that ran, or the file's summary,
// silently missing (nodejs/node#64833). Here a file whose process stays up after its tests (a
// handle left open) is ended two seconds later, once its report has been written; a file that ends
// by itself is not kept waiting (the timer does not hold the process).
import { after } from 'node:test';

/** How long a test file's process may stay up after its tests, its report flushed meanwhile. */
const exitAfterMs = 1_000;

// Only in a test file's own process (the runner starts it with NODE_TEST_CONTEXT set and without
// `--test`), never in the runner itself.
if (process.env.NODE_TEST_CONTEXT !== undefined && !process.execArgv.includes('--test')) {
  after(() => {
    setTimeout(() => {
      // The runner reports a file's end when its process is about to exit by itself; a handle
      // keeps it up, so that moment is announced here, and the process ends once the report
      // has had time to reach the runner.
      (process as NodeJS.EventEmitter).emit('beforeExit', process.exitCode ?? 0);
      setTimeout(() => process.exit(), exitAfterMs).unref();
    }, exitAfterMs).unref();
  });
}
