// The entry point of the child process that runs one SQL query (see
// run-query-in-child-process.ts). SQLite cannot be interrupted from JavaScript, so the parent
// kills this process when the query runs too long; a watchdog thread kills it too, in case the
// parent is gone.
import { Worker } from 'node:worker_threads';
import { executeReadOnlyQuery, type QueryRequest } from './execute-read-only-query.ts';

/** What the parent sends: the query, and when this process must be gone at the latest. */
export interface QueryProcessMessage {
  request: QueryRequest;
  killAfterMs: number;
}

const watchdog = `
const { workerData } = require('node:worker_threads');
setTimeout(() => process.kill(process.pid, 'SIGKILL'), workerData);
`;

const send = process.send?.bind(process);
if (send !== undefined) {
  process.once('message', (message: QueryProcessMessage) => {
    new Worker(watchdog, { eval: true, workerData: message.killAfterMs }).unref();
    const outcome = executeReadOnlyQuery(message.request);
    send(outcome, undefined, {}, () => process.exit(0));
  });
  process.once('disconnect', () => process.exit(1));
}
