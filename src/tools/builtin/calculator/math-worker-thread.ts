// The entry point of the calculator's worker thread (see math-worker.ts): it builds one
// restricted mathjs instance, says it is ready, then answers each expression of a request
// with one message, in order.
import { parentPort } from 'node:worker_threads';
import { createRestrictedMath } from './restricted-math.ts';

/** A request from the host thread. */
export interface MathRequest {
  expressions: string[];
}

const port = parentPort;
if (port !== null) {
  const math = createRestrictedMath();
  port.on('message', (request: MathRequest) => {
    for (const expression of request.expressions) port.postMessage(math.evaluate(expression));
  });
  port.postMessage('ready');
}
