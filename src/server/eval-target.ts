import type { EvalTarget, Scorer } from '../evals/index.ts';
import type { Runtime } from './create-runtime.ts';

/** The graphs an evaluation may run on: the chat graphs (built-in ones for now). */
export function evalGraphNames(_runtime: Runtime): string[] {
  return ['chat', 'react', 'ops'];
}

/**
 * What evaluation runs go through: the runtime's agent runner, each item's session
 * registered for `owner` (so the run's sessions are the owner's, listed and opened in the
 * inspector like any other), and the retrieved context read from the session's state.
 */
export function evalTargetOf(runtime: Runtime, owner: string): EvalTarget {
  return {
    invoke: (request) => runtime.runner.invoke(request),
    claimSession: (sessionId, firstMessage) =>
      runtime.sessions.claim(sessionId, owner, firstMessage),
    contextOf: async (sessionId) =>
      (await runtime.runner.chat.getState(sessionId))?.values.context ?? '',
  };
}

/** The config file's `scorers` (the composition root sets `runtime.scorers` once it loads the config). */
export function userScorersOf(runtime: Runtime): Scorer[] {
  return (runtime as Runtime & { scorers?: Scorer[] }).scorers ?? [];
}
