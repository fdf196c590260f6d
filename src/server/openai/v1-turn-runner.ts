import type { FastifyRequest } from 'fastify';
import { type AgentResponse, type AgentRunner, createAgentRunner } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { MemoryCheckpointer } from '../../graph/index.ts';
import type { ModelTool } from '../../models/index.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { admitRun } from '../runs/admit-run.ts';
import { type AgentCall, runAgentCall } from '../runs/run-request.ts';
import { firstMessageTitle } from '../runtime/first-message-title.ts';
import type { V1Turn } from './chat-completion-request.ts';
import { keepPausedRun } from './keep-paused-run.ts';

/** A `/v1` turn with what a Responses request may add for its run only. */
export interface V1TurnWithAdditions extends V1Turn {
  clientTools?: ModelTool[];
  instructions?: string;
}

/** How a `/v1` turn runs: the run options, what started it, and whether a paused stateless run is kept. */
export type V1RunOptions = Omit<Parameters<typeof runAgentCall>[2], 'runner'> & {
  /** False: a stateless run that paused is dropped like any other (nothing is kept). */
  keepPaused?: boolean;
};

/**
 * Runs `/v1` turns (chat completions, responses): on a session of the caller (its stored
 * memory, only the new message added; a new session starts from the turn's history), or —
 * without a session — on an in-memory store, forgotten afterwards unless the run paused for
 * approval: then it is kept as a session of the caller, to be decided.
 */
export function createV1TurnRunner(context: RouteContext) {
  const { runtime } = context;
  const memory = new MemoryCheckpointer();
  let stateless: { runner: AgentRunner; app: unknown } | undefined;

  /** The in-memory runner of stateless calls, rebuilt when the config file changed. */
  const statelessRunner = () => {
    const app = runtime.app;
    if (stateless?.app !== app) {
      const userGraphs = app.graphs.map((entry) => ({
        ...entry,
        graph: entry.source.compile({ name: entry.name, checkpointer: memory }),
      }));
      const runner = createAgentRunner(app.deps, memory, {
        ...app.runner,
        userGraphs,
        guards: runtime.guards,
      });
      stateless = { app, runner };
      return runner;
    }
    return stateless.runner;
  };

  /** Runs the turn; a stateless run is then forgotten, or kept when it paused. */
  return async (
    request: FastifyRequest,
    turn: V1TurnWithAdditions,
    sessionId: string | undefined,
    options: V1RunOptions,
  ): Promise<{ payload: AgentResponse; sessionId: string | null }> => {
    const owner = context.ownerOf(request);
    const { keepPaused = true, ...runOptions } = options;
    const call: AgentCall = {
      sessionId: sessionId ?? `v1-${createId()}`,
      message: turn.message,
      options: {
        graph: turn.graph,
        ...(turn.temperature === undefined ? {} : { temperature: turn.temperature }),
        ...(turn.maxOutputTokens === undefined ? {} : { maxOutputTokens: turn.maxOutputTokens }),
      },
      ...(turn.clientTools?.length ? { clientTools: turn.clientTools } : {}),
      ...(turn.instructions ? { instructions: turn.instructions } : {}),
    };
    const withHistory = turn.history.length > 0 ? { ...call, history: turn.history } : call;
    if (sessionId !== undefined) {
      const title = firstMessageTitle(runtime, turn.graph, turn.message);
      const created = await runtime.sessions.claim(sessionId, owner, title, turn.graph);
      // A session's memory holds the earlier turns; a new session starts from the request's.
      const graph = await runtime.runner.threadGraph(sessionId);
      const fresh = (await graph.getState(sessionId)) === undefined;
      const admission = await admitRun(context, request, owner, created ? sessionId : undefined);
      return {
        payload: await runAgentCall(
          context,
          {
            ...(fresh ? withHistory : call),
            owner,
            ...(turn.onBusy === undefined ? {} : { onBusy: turn.onBusy }),
          },
          { source: 'v1', ...runOptions, admission },
        ),
        sessionId,
      };
    }
    const admission = await admitRun(context, request, owner);
    const runner = statelessRunner();
    // A stateless call neither reads nor writes long-term memory; its owner still decides
    // whose workspace the file tools see.
    const statelessCall = {
      ...withHistory,
      owner,
      options: { ...withHistory.options, longTermMemory: false },
    };
    let kept = false;
    try {
      const { source: _unrecorded, ...statelessOptions } = runOptions;
      const payload = await runAgentCall(context, statelessCall, {
        ...statelessOptions,
        runner,
        admission,
      });
      if (payload.status !== 'interrupted' || !keepPaused) return { payload, sessionId: null };
      kept = true;
      // Registered first: the thread is the caller's from its first entry.
      const title = firstMessageTitle(runtime, turn.graph, turn.message);
      await runtime.sessions.claim(call.sessionId, owner, title, turn.graph);
      await keepPausedRun(memory, runtime.checkpointer, call.sessionId);
      return { payload, sessionId: call.sessionId };
    } finally {
      await runner.deleteSession(call.sessionId);
      // The call's placeholder vault lives as long as the call (or the run it left paused).
      if (!kept) await runtime.vaults.delete(call.sessionId);
    }
  };
}

/** Runs a `/v1` turn (see `createV1TurnRunner`). */
export type V1TurnRunner = ReturnType<typeof createV1TurnRunner>;
