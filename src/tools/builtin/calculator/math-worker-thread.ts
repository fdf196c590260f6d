// The entry point of the calculator's worker thread (see math-worker.ts): it builds one
// restricted mathjs instance, says it is ready, then answers one expression per message.
import { parentPort } from 'node:worker_threads';
import { createRestrictedMath } from './restricted-math.ts';

/** A request from the host thread. */
export interface MathRequest {
  expression: string;
}

const port = parentPort;
if (port !== null) {
  const math = createRestrictedMath();
  port.on('message', (request: MathRequest) => {
    port.postMessage(math.evaluate(request.expression));
  });
  port.postMessage('ready');
}
