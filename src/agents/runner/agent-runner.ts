import { combineSignals, createId } from '../../core/index.ts';
import {
  type Checkpointer,
  type CompiledGraph,
  RunCancelledError,
  RunSupersededError,
  type StateSchema,
} from '../../graph/index.ts';
import { AnsweringModelScope } from '../../models/index.ts';
import { type AgentRequest, type AgentResponse, approvalOf } from '../agent-payload.ts';
import type { GuardSettings } from '../guard/guard-turn.ts';
import { isKorean } from '../prompts.ts';
import {
  buildGraphRegistry,
  type GraphRegistry,
  type RegistryOptions,
} from '../registry/graph-registry.ts';
import type { AgentDependencies } from '../types.ts';
import { ActiveRuns } from './active-runs.ts';
import { dispatchRequest, resumeLeftBehind, type WorkContext } from './dispatch-run.ts';
import { cancelledResponse, type Payload, responseOf } from './run-payload.ts';
import { SessionGraphs } from './session-graph.ts';
import { opsThreadOf } from './session-threads.ts';

/** What a runner is built from besides the default dependencies. */
export interface RunnerOptions extends Omit<RegistryOptions, 'checkpointer'> {
  /** Which user graph a session belongs to (from the session store); undefined for built-ins. */
  graphOfSession?: (sessionId: string) => Promise<string | undefined>;
  /**
   * Whom a session's runs serve (from the session store), for a run whose request names no
   * owner (one a dead process left behind): whose workspace its file tools see.
   */
  ownerOfSession?: (sessionId: string) => Promise<string | undefined>;
  /** The guardrails of each chat graph, the sessions' vaults and who hears of each action. */
  guards?: GuardSettings;
  /** Titles a registered, untitled session by its first message once input guardrails ran. */
  titleSession?: (sessionId: string, message: string) => Promise<void>;
}

/**
 * Runs the agent graphs for requests: one thread per session in the checkpointer (so a
 * conversation survives a restart), on the graph the request names from the graph registry
 * (a built-in agent or a config file's chat graph), optionally inside the self-correcting
 * ops loop (on a thread of its own), and the contract's payload out. Runs pause on tool
 * calls that need approval and resume with decisions; a run its process left behind is
 * closed before the session's next run.
 * @example
 * const runner = createAgentRunner(deps, new SqliteCheckpointer({ path: 'data/threads.sqlite' }));
 * const payload = await runner.invoke({ message: '123 * 456 계산해줘' });
 */
export function createAgentRunner(
  deps: AgentDependencies,
  checkpointer: Checkpointer,
  options: RunnerOptions = {},
) {
  /** The graphs requests start on now; a run keeps the registry it started with (`reconfigure`). */
  let current = buildGraphRegistry(deps, { ...options, checkpointer });
  /** The guardrails requests start with now; a run keeps those it started with. */
  let guards = options.guards;
  const sessions = new SessionGraphs(options.graphOfSession);
  const active = new ActiveRuns();

  /** Runs one request's work as a tracked run of its session, and shapes its response. */
  async function run(
    request: AgentRequest,
    work: (context: WorkContext) => Promise<Payload>,
  ): Promise<AgentResponse> {
    const started = performance.now();
    const sessionId = request.sessionId ?? createId();
    const runId = request.runId ?? createId();
    const controller = new AbortController();
    const untrack = active.track(sessionId, controller);
    const signal = combineSignals(request.signal, controller.signal);
    const partial = keepPartialText(request.onEvent ?? (() => undefined), signal);
    const emit = partial.emit;
    const seconds = () => Math.round(performance.now() - started) / 1000;
    const korean = isKorean(request.message ?? '');
    const runGuards = guards;
    // Every model call of the run, however deep, notes the model that answered it.
    const answering = new AnsweringModelScope();
    try {
      const owner = request.owner ?? (await options.ownerOfSession?.(sessionId));
      const payload = await answering.run(() =>
        work({
          sessionId,
          signal,
          emit,
          streamTokens: request.streamTokens ?? request.onEvent !== undefined,
          ...(owner === undefined ? {} : { owner }),
          guards: runGuards,
          titleSession: options.titleSession,
          runId,
        }),
      );
      return responseOf(payload, sessionId, runId, seconds(), emit, answering.model);
    } catch (error) {
      if (!(error instanceof RunCancelledError)) throw error;
      return cancelledResponse(korean, sessionId, runId, seconds(), answering.model);
    } finally {
      partial.release();
      untrack();
    }
  }

  /**
   * Ends the session's unfinished runs (left behind, or paused); false when there were none.
   * `cause`: a `RunSupersededError` when a newer message takes their place (with rollback
   * they are removed).
   */
  const abandon = async (
    sessionId: string,
    reason = 'abandoned',
    cause?: RunSupersededError,
    /** An instance whose running run counts as left behind though it is alive. */
    leftBy?: string,
  ): Promise<boolean> => {
    const registry = current;
    const entry = await sessions.entry(registry, sessionId);
    const inner = await entry.handoff.thread.abandon(sessionId, reason, cause, leftBy);
    const outer = await registry.evaluationLoop.abandon(
      opsThreadOf(sessionId),
      reason,
      cause,
      leftBy,
    );
    return inner || outer;
  };

  /** The graph whose state a session's thread holds (a user graph's, or the default agent's). */
  const threadGraph = async (sessionId: string): Promise<CompiledGraph<StateSchema>> => {
    const registry = current;
    const user = await sessions.userEntry(registry, sessionId);
    return (user ?? registry.default).handoff.thread as CompiledGraph<StateSchema>;
  };

  /** The id of the session's last run (the paused one, or one left behind); undefined when none. */
  const lastRunId = async (sessionId: string): Promise<string | undefined> => {
    const graph = await threadGraph(sessionId);
    return (await graph.getState(sessionId))?.runId;
  };

  return {
    /** Every graph requests may run on now: the built-in agents and the config file's graphs. */
    get graphs(): GraphRegistry {
      return current;
    },

    /**
     * Swaps in graphs built from new settings (`yeoul dev` after a save): requests from now
     * on run on them; runs going on finish on the graphs they started with.
     */
    reconfigure(
      nextDeps: AgentDependencies,
      nextOptions: Omit<
        RunnerOptions,
        'graphOfSession' | 'ownerOfSession' | 'durability' | 'titleSession'
      >,
    ) {
      current = buildGraphRegistry(nextDeps, {
        ...nextOptions,
        checkpointer,
        ...(options.durability ? { durability: options.durability } : {}),
      });
      guards = nextOptions.guards;
    },

    threadGraph,

    /** A session's conversation as the default agent reads it (messages, context, status). */
    conversationState(sessionId: string) {
      return current.conversation.getState(sessionId);
    },

    /** The states of the session's threads: its conversation, then its ops loop's. */
    async threadStates(sessionId: string) {
      const registry = current;
      return [
        await registry.conversation.getState(sessionId),
        await registry.evaluationLoop.getState(opsThreadOf(sessionId)),
      ];
    },

    /**
     * Runs one request: a new message, or decisions for the session's paused run (which
     * go on under that run's id).
     */
    async invoke(request: AgentRequest): Promise<AgentResponse> {
      const registry = current;
      const runId =
        request.runId ??
        (request.resume && request.sessionId !== undefined
          ? await lastRunId(request.sessionId)
          : undefined);
      const asked = runId === undefined ? request : { ...request, runId };
      return run(asked, (work) => dispatchRequest(registry, sessions, asked, work));
    },

    /** The id of the session's last run (the paused one, or one left behind); undefined when none. */
    lastRunId,

    /**
     * Finishes the run a dead process left behind on the session (`yeoul sessions resume`):
     * its interrupted step runs again and the run goes on to its answer.
     */
    async resumeInterrupted(
      sessionId: string,
      options: Pick<AgentRequest, 'signal' | 'onEvent' | 'runConfig'> = {},
    ): Promise<AgentResponse> {
      const registry = current;
      const runId = await lastRunId(sessionId);
      return run({ ...options, sessionId, ...(runId === undefined ? {} : { runId }) }, (work) =>
        resumeLeftBehind(registry, sessions, work, options.runConfig),
      );
    },

    /**
     * Stops the session's run: the one going in this process is cancelled (no further
     * model or tool call; it ends `cancelled`), else a run left behind by a dead process or
     * paused for approval is abandoned. False when there was none.
     */
    async cancel(sessionId: string): Promise<boolean> {
      const running = active.running(sessionId);
      if (running) {
        running.abort(new Error('cancelled by request'));
        return true;
      }
      return abandon(sessionId, 'cancelled by request');
    },

    abandon,

    /** The session's tool calls waiting for a decision. */
    async pendingInterrupts(sessionId: string) {
      const graph = await threadGraph(sessionId);
      return ((await graph.getState(sessionId))?.interrupts ?? []).map(approvalOf);
    },

    /** Whether a run of the session is going (or queued) in this process. */
    isRunning(sessionId: string): boolean {
      return active.has(sessionId);
    },

    /** Runs going (or queued) in this process, over all sessions. */
    get activeRuns(): number {
      return active.count;
    },

    /**
     * Waits for the runs going in this process to end, up to `graceMs`; then cancels the
     * rest (their open tool calls closed) and waits for them. For shutting down.
     */
    settle(graceMs: number): Promise<void> {
      return active.settle(graceMs);
    },

    /** Deletes a session's threads (the conversation and its ops loop). */
    async deleteSession(sessionId: string): Promise<void> {
      const registry = current;
      // Through the graph that holds it too, so that its cache forgets the thread.
      await (await sessions.userEntry(registry, sessionId))?.graph.deleteThread(sessionId);
      await registry.conversation.deleteThread(sessionId);
      await registry.evaluationLoop.deleteThread(opsThreadOf(sessionId));
    },
  };
}

/**
 * The run's events passed on, the text of the answer being streamed kept aside: when a newer
 * message stops the run (`RunSupersededError`), that text goes with it, for the interrupted
 * answer its conversation keeps. A step's start or end begins a new answer.
 */
function keepPartialText(
  emit: (name: string, data: unknown) => void,
  signal: AbortSignal,
): { emit: (name: string, data: unknown) => void; release: () => void } {
  let text = '';
  const onAbort = () => {
    if (signal.reason instanceof RunSupersededError) signal.reason.partialText = text;
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    emit: (name, data) => {
      if (name === 'token') text += (data as { text?: string }).text ?? '';
      else if (name === 'step') text = '';
      emit(name, data);
    },
    // A combined signal (AbortSignal.any) with an abort listener is kept alive by Node until
    // the listener goes: without this, every run's request stayed in memory for good.
    release: () => signal.removeEventListener('abort', onAbort),
  };
}

/** A running Yeoul agent runner. */
export type AgentRunner = ReturnType<typeof createAgentRunner>;
