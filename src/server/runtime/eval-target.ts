import { graphNameOf } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import type { EvalTarget, Scorer } from '../../evals/index.ts';
import { guardsInput } from '../runs/guards-input.ts';
import { endingOf } from '../runs/run-ledger.ts';
import type { Runtime } from './create-runtime.ts';
import { firstMessageTitle } from './first-message-title.ts';
import { chatGraphNames } from './graph-names.ts';

/** The graphs an evaluation may run on: every chat graph, the config file's included. */
export function evalGraphNames(runtime: Runtime): string[] {
  return chatGraphNames(runtime);
}

/**
 * What evaluation runs go through: the runtime's agent runner (each turn's usage counted for
 * `owner`, so the owner's usage adds up the items' `usage`), each item's session registered
 * for `owner` (so the run's sessions are the owner's, listed and opened in the inspector like
 * any other), and the retrieved context read from the session's state. Items run as the
 * owner's (whose workspace the file tools see) without long-term memory.
 */
export function evalTargetOf(runtime: Runtime, owner: string): EvalTarget {
  return {
    invoke: async (request) => {
      const runId = createId();
      const sessionId = request.sessionId;
      const now = new Date().toISOString();
      // Recorded like any run on a session: once as it starts, once as it ends.
      const started =
        sessionId === undefined
          ? undefined
          : runtime.runs.create({
              runId,
              sessionId,
              owner,
              status: 'running',
              source: 'eval',
              graph: graphNameOf(request.options),
              ...(request.message === undefined || guardsInput(runtime)
                ? {}
                : { message: request.message }),
              createdAt: now,
              startedAt: now,
              endedAt: null,
              attempts: 1,
              instanceId: runtime.checkpointer.instanceId,
            });
      const payload = await runtime.runner.invoke({
        ...request,
        owner,
        runId,
        options: { ...request.options, longTermMemory: false },
      });
      if (started !== undefined) {
        await started;
        await runtime.runs.update(runId, {
          ...endingOf(payload),
          endedAt: payload.status === 'interrupted' ? null : new Date().toISOString(),
        });
      }
      await runtime.usage.record(owner, payload.usage);
      return payload;
    },
    claimSession: async (sessionId, firstMessage, graph) => {
      await runtime.sessions.claim(
        sessionId,
        owner,
        firstMessageTitle(runtime, graph, firstMessage),
        graph,
      );
    },
    contextOf: async (sessionId) => {
      const state = await (await runtime.runner.threadGraph(sessionId)).getState(sessionId);
      const context = (state?.values as { context?: unknown } | undefined)?.context;
      return typeof context === 'string' ? context : '';
    },
  };
}

/** The config file's `scorers` (checked by the config's validation: a name and a score function). */
export function userScorersOf(runtime: Runtime): Scorer[] {
  return runtime.scorers;
}
