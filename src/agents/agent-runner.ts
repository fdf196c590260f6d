import { combineSignals, createId } from '../core/index.ts';
import {
  type Checkpointer,
  type CompiledGraph,
  NothingToResumeError,
  RunCancelledError,
  type RunResult,
  type StateSchema,
} from '../graph/index.ts';
import { redactSecrets } from '../models/index.ts';
import {
  type AgentRequest,
  type AgentResponse,
  answersOf,
  approvalOf,
  awaitingApprovalAnswer,
  cancelledAnswer,
  type GraphName,
} from './agent-payload.ts';
import { buildChatGraph } from './chat/build-chat-graph.ts';
import { UnknownGraphError } from './errors/unknown-graph-error.ts';
import { type AgentGraphs, forwardEvents, innerAgent, innerResult } from './inner-agent.ts';
import { buildOpsGraph, opsRunInput } from './ops/build-ops-graph.ts';
import type { InnerAgentResult, OpsState } from './ops/ops-state.ts';
import { isKorean } from './prompts.ts';
import { buildReactGraph } from './react/build-react-graph.ts';
import type { AgentDependencies } from './types.ts';
import { type UserGraphEntry, userChatResult, userInnerAgent } from './user-graph-run.ts';

/** The thread the ops loop of a session keeps its own state on (`#` never occurs in session ids). */
export function opsThreadOf(sessionId: string): string {
  return `${sessionId}#ops`;
}

/** The session a thread belongs to: itself, or the session of its ops loop (`opsThreadOf`). */
export function sessionOfThread(threadId: string): string {
  return threadId.split('#')[0] as string;
}

/** Whether the thread is a session's conversation (not its ops loop). */
export function isSessionThread(threadId: string): boolean {
  return !threadId.includes('#');
}

/**
 * Runs the agent graphs for requests: one thread per session in the checkpointer (so a
 * conversation survives a restart), the chat or react agent, optionally inside the
 * self-correcting ops loop (on a thread of its own), and the contract's payload out.
 * Runs pause on tool calls that need approval and resume with decisions; a run its
 * process left behind is closed before the session's next run.
 * @example
 * const runner = createAgentRunner(deps, new SqliteCheckpointer({ path: 'data/threads.sqlite' }));
 * const payload = await runner.invoke({ message: '123 * 456 계산해줘' });
 */
export function createAgentRunner(
  deps: AgentDependencies,
  checkpointer: Checkpointer,
  options: RunnerOptions = {},
) {
  /** The graphs requests start on now; a run keeps the set it started with (`reconfigure`). */
  let current = buildGraphs(deps, checkpointer, options);
  /** Which user graph a session belongs to (none: a built-in agent's session). */
  const graphOfSession = options.graphOfSession ?? (async () => undefined);
  /** Controllers of the runs of each session in this process, oldest (the running one) first. */
  const active = new Map<string, AbortController[]>();
  /** Called whenever a run ends, for `settle`. */
  const onRunEnd = new Set<() => void>();

  /** Which agent graph a session's thread belongs to (chat for new or older threads). */
  const agentOf = async (sessionId: string, set = current): Promise<'chat' | 'react'> =>
    (await set.chat.getState(sessionId))?.values.agent ?? 'chat';

  /** The user graph a session runs on, when it is one of a user graph. */
  const userEntryOf = async (sessionId: string, set = current) => {
    const name = await graphOfSession(sessionId);
    return name === undefined ? undefined : set.users.get(name);
  };

  const track = (sessionId: string, controller: AbortController) => {
    active.set(sessionId, [...(active.get(sessionId) ?? []), controller]);
    return () => {
      const rest = (active.get(sessionId) ?? []).filter((entry) => entry !== controller);
      if (rest.length > 0) active.set(sessionId, rest);
      else active.delete(sessionId);
      for (const listener of onRunEnd) listener();
    };
  };

  async function run(request: AgentRequest, work: Work): Promise<AgentResponse> {
    const started = performance.now();
    const sessionId = request.sessionId ?? createId();
    const emit = request.onEvent ?? (() => undefined);
    const controller = new AbortController();
    const untrack = track(sessionId, controller);
    const signal = combineSignals(request.signal, controller.signal);
    const seconds = () => Math.round(performance.now() - started) / 1000;
    const korean = isKorean(request.message ?? '');
    try {
      const payload = await work({
        sessionId,
        signal,
        emit,
        streamTokens: request.streamTokens ?? request.onEvent !== undefined,
      });
      for (const pending of payload.interrupts ?? []) emit('interrupt', pending);
      if (payload.status === 'error' && payload.errorCode) {
        emit('error', { code: payload.errorCode, message: payload.errorMessage });
      }
      const { errorMessage: _hidden, ...body } = payload;
      return { ...body, sessionId, executionTime: seconds() };
    } catch (error) {
      if (!(error instanceof RunCancelledError)) throw error;
      return {
        response: cancelledAnswer(korean),
        sessionId,
        toolsUsed: [],
        executionTime: seconds(),
        status: 'cancelled',
        steps: [],
        usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
      };
    } finally {
      untrack();
    }
  }

  const innerFor = (
    set: GraphSet,
    agent: 'chat' | 'react' | UserGraphEntry,
    request: AgentRequest,
    work: WorkContext,
    underOps = false,
  ) => {
    const agentOptions = {
      maxIterations: request.options?.maxIterations ?? 5,
      ...(request.options?.temperature === undefined
        ? {}
        : { temperature: request.options.temperature }),
      ...(request.options?.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: request.options.maxOutputTokens }),
    };
    const history = request.resume ? [] : (request.history ?? []);
    if (typeof agent !== 'string') {
      return userInnerAgent(agent, work.sessionId, agentOptions, work.streamTokens, history);
    }
    const graphs = underOps ? set.opsInner : set.graphs;
    return innerAgent(graphs, agent, work.sessionId, agentOptions, work.streamTokens, history);
  };

  async function runOps(
    start: (config: OpsRunConfig) => Promise<RunResult<StateSchema>>,
    inner: ReturnType<typeof innerFor>,
    work: WorkContext,
  ): Promise<Payload> {
    const steps: string[] = [];
    const result = await start({
      threadId: opsThreadOf(work.sessionId),
      signal: work.signal,
      onEvent: forwardEvents(steps, work.emit),
      context: { inner },
      onPendingRun: 'abandon',
    });
    return opsPayload(result, steps);
  }

  return {
    /** The chat agent (its thread holds a session's conversation). */
    get chat() {
      return current.chat;
    },
    get react() {
      return current.react;
    },
    get ops() {
      return current.ops;
    },
    /** The graphs of the config file, by name. */
    get userGraphs(): ReadonlyMap<string, UserGraphEntry> {
      return current.users;
    },

    /**
     * Swaps in graphs built from new settings (`yeoul dev` after a save): requests from now
     * on run on them; runs going on finish on the graphs they started with.
     */
    reconfigure(nextDeps: AgentDependencies, nextOptions: Omit<RunnerOptions, 'graphOfSession'>) {
      current = buildGraphs(nextDeps, checkpointer, nextOptions);
    },

    /** The graph whose state a session's thread holds (a user graph's, or the chat agent's). */
    async threadGraph(sessionId: string): Promise<CompiledGraph<StateSchema>> {
      const set = current;
      return ((await userEntryOf(sessionId, set))?.graph ?? set.chat) as CompiledGraph<StateSchema>;
    },

    /** Runs one request: a new message, or decisions for the session's paused run. */
    invoke(request: AgentRequest): Promise<AgentResponse> {
      const set = current;
      return run(request, async (work) => {
        const named = request.options?.graph;
        const user =
          named === undefined || isBuiltinGraph(named)
            ? request.resume || named === undefined
              ? await userEntryOf(work.sessionId, set)
              : undefined
            : set.users.get(named);
        if (named !== undefined && !isBuiltinGraph(named) && user === undefined) {
          throw new UnknownGraphError({ graph: named, known: [...set.users.keys()] });
        }
        const evaluate = named === 'ops' || request.options?.evaluate === true;
        if (request.resume) {
          const answers = answersOf(request.resume.decisions);
          const opsState = await set.ops.getState(opsThreadOf(work.sessionId));
          const underOps = opsState?.status === 'interrupted';
          const agent = user ?? (await agentOf(work.sessionId, set));
          const inner = innerFor(set, agent, request, work, underOps);
          if (underOps) {
            return runOps(
              (config) => set.ops.resumeRun(config.threadId, { ...config, answers }),
              inner,
              work,
            );
          }
          return innerPayload(await inner({ answers }, work));
        }
        const message = request.message ?? '';
        const agent = user ?? (named === 'react' ? 'react' : 'chat');
        const inner = innerFor(set, agent, request, work, evaluate);
        if (!evaluate) return innerPayload(await inner({ prompt: message }, work));
        return runOps((config) => set.ops.run(opsRunInput(message) as never, config), inner, work);
      });
    },

    /**
     * Finishes the run a dead process left behind on the session (`yeoul sessions resume`):
     * its interrupted step runs again and the run goes on to its answer.
     */
    resumeInterrupted(
      sessionId: string,
      options: Pick<AgentRequest, 'signal' | 'onEvent'> = {},
    ): Promise<AgentResponse> {
      const set = current;
      return run({ ...options, sessionId }, async (work) => {
        const user = await userEntryOf(sessionId, set);
        const graph = user?.graph ?? set.chat;
        const state = await graph.getState(sessionId);
        const agent = user ?? (state?.values.agent as 'chat' | 'react' | undefined) ?? 'chat';
        const opsState = await set.ops.getState(opsThreadOf(sessionId));
        if (opsState?.status === 'running') {
          return runOps(
            (config) => set.ops.resumeRun(config.threadId, config),
            innerFor(set, agent, {}, work, true),
            work,
          );
        }
        if (state?.status !== 'running') throw new NothingToResumeError({ threadId: sessionId });
        const steps: string[] = [];
        const resumed = {
          signal: work.signal,
          onEvent: forwardEvents(steps, work.emit),
          context: { streamTokens: work.streamTokens },
        };
        if (user)
          return innerPayload(
            userChatResult(await user.graph.resumeRun(sessionId, resumed), steps),
          );
        const result = await set.graphs[agent as 'chat' | 'react'].resumeRun(sessionId, resumed);
        return innerPayload(innerResult(result, steps));
      });
    },

    /**
     * Stops the session's run: the one going in this process is cancelled (no further
     * model or tool call; it ends `cancelled`), else a run left behind by a dead process or
     * paused for approval is abandoned. False when there was none.
     */
    async cancel(sessionId: string): Promise<boolean> {
      const running = active.get(sessionId)?.[0];
      if (running) {
        running.abort(new Error('cancelled by request'));
        return true;
      }
      return this.abandon(sessionId, 'cancelled by request');
    },

    /** Ends the session's unfinished runs (left behind, or paused); false when there were none. */
    async abandon(sessionId: string, reason = 'abandoned'): Promise<boolean> {
      const set = current;
      const user = await userEntryOf(sessionId, set);
      const graph = user?.graph ?? set.graphs[await agentOf(sessionId, set)];
      const inner = await graph.abandon(sessionId, reason);
      const outer = await set.ops.abandon(opsThreadOf(sessionId), reason);
      return inner || outer;
    },

    /** The session's tool calls waiting for a decision. */
    async pendingInterrupts(sessionId: string) {
      const graph = await this.threadGraph(sessionId);
      return ((await graph.getState(sessionId))?.interrupts ?? []).map(approvalOf);
    },

    /** Whether a run of the session is going (or queued) in this process. */
    isRunning(sessionId: string): boolean {
      return active.has(sessionId);
    },

    /** Runs going (or queued) in this process, over all sessions. */
    get activeRuns(): number {
      let total = 0;
      for (const controllers of active.values()) total += controllers.length;
      return total;
    },

    /**
     * Waits for the runs going in this process to end, up to `graceMs`; then cancels the
     * rest (their open tool calls closed) and waits for them. For shutting down.
     */
    async settle(graceMs: number): Promise<void> {
      const idle = () =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (active.size > 0) return;
            onRunEnd.delete(check);
            resolve();
          };
          onRunEnd.add(check);
          check();
        });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), graceMs);
      });
      if ((await Promise.race([idle(), late])) === 'late') {
        for (const controllers of active.values()) {
          for (const controller of controllers) {
            controller.abort(new Error('the server is shutting down'));
          }
        }
        await idle();
      }
      clearTimeout(timer);
    },

    /** Deletes a session's threads (the conversation and its ops loop). */
    async deleteSession(sessionId: string): Promise<void> {
      const set = current;
      // Through the graph that holds it too, so that its cache forgets the thread.
      await (await userEntryOf(sessionId, set))?.graph.deleteThread(sessionId);
      await set.chat.deleteThread(sessionId);
      await set.ops.deleteThread(opsThreadOf(sessionId));
    },
  };
}

/** A running Yeoul agent runner. */
export type AgentRunner = ReturnType<typeof createAgentRunner>;

/** What a runner is built from besides the default dependencies. */
export interface RunnerOptions {
  /** Dependencies of each built-in agent (persona, tools, model, memory), default `deps`. */
  agents?: Partial<Record<GraphName, AgentDependencies>>;
  /** The graphs of the config file, compiled on the runner's checkpointer. */
  userGraphs?: readonly UserGraphEntry[];
  /** Which user graph a session belongs to (from the session store); undefined for built-ins. */
  graphOfSession?: (sessionId: string) => Promise<string | undefined>;
}

/** The graphs of one configuration. */
type GraphSet = ReturnType<typeof buildGraphs>;

/** The built-in agents' graphs (each from its own dependencies) and the user graphs. */
function buildGraphs(
  deps: AgentDependencies,
  checkpointer: Checkpointer,
  options: Omit<RunnerOptions, 'graphOfSession'>,
) {
  const chatDeps = options.agents?.chat ?? deps;
  const reactDeps = options.agents?.react ?? deps;
  const opsDeps = options.agents?.ops;
  const chat = buildChatGraph(chatDeps, { checkpointer });
  const react = buildReactGraph(reactDeps, { checkpointer });
  const judgeModel = (opsDeps ?? deps).model;
  const judge = judgeModel.info.provider === 'offline' ? undefined : judgeModel;
  const ops = buildOpsGraph(judge ? { judge } : {}, { checkpointer });
  const graphs = { chat, react } as unknown as AgentGraphs;
  // The ops loop's inner agent runs with the ops agent's settings when it has its own.
  const opsInner = opsDeps
    ? ({
        chat: buildChatGraph(opsDeps, { checkpointer }),
        react: buildReactGraph(opsDeps, { checkpointer }),
      } as unknown as AgentGraphs)
    : graphs;
  const users = new Map((options.userGraphs ?? []).map((entry) => [entry.name, entry]));
  return { chat, react, ops, graphs, opsInner, users };
}

/** Whether a graph name is one of the built-in agents'. */
export function isBuiltinGraph(name: string): name is GraphName {
  return name === 'chat' || name === 'react' || name === 'ops';
}

/** What a request's work gets. */
interface WorkContext {
  sessionId: string;
  signal: AbortSignal;
  emit: (name: string, data: unknown) => void;
  streamTokens: boolean;
}

/** A payload before the runner adds the session and the time, with the error's message. */
type Payload = Omit<AgentResponse, 'sessionId' | 'executionTime'> & { errorMessage?: string };

type Work = (work: WorkContext) => Promise<Payload>;

type OpsRunConfig = {
  threadId: string;
  signal: AbortSignal;
  onEvent: ReturnType<typeof forwardEvents>;
  context: { inner: unknown };
  onPendingRun: 'abandon';
};

function innerPayload(result: InnerAgentResult): Payload {
  const interrupts = result.interrupts.map(approvalOf);
  const korean = isKorean(result.question);
  return {
    response:
      result.status === 'interrupted'
        ? awaitingApprovalAnswer(korean, interrupts)
        : result.response,
    toolsUsed: result.toolsUsed,
    status: result.status === 'interrupted' ? 'interrupted' : result.error ? 'error' : 'published',
    ...(result.error && result.status !== 'interrupted'
      ? {
          error: true as const,
          errorCode: result.error.code,
          errorMessage: redactSecrets(result.error.message),
        }
      : {}),
    ...(interrupts.length > 0 ? { interrupts } : {}),
    sources: result.sources,
    steps: result.steps,
    usage: result.usage,
  };
}

function opsPayload(result: RunResult<StateSchema>, steps: string[]): Payload {
  const state = result.values as unknown as OpsState;
  const interrupts = result.interrupts.map(approvalOf);
  const allSteps = [...steps.slice(0, 1), ...state.innerSteps, ...steps.slice(1)];
  if (result.status === 'interrupted') {
    return {
      response: awaitingApprovalAnswer(isKorean(state.prompt), interrupts),
      toolsUsed: state.toolsUsed,
      status: 'interrupted',
      interrupts,
      sources: state.sources,
      steps: allSteps,
      usage: state.usage,
    };
  }
  return {
    response: state.finalResponse,
    toolsUsed: state.toolsUsed,
    status: state.finalStatus === 'pending' ? 'error' : state.finalStatus,
    ...(state.error
      ? {
          error: true as const,
          errorCode: state.error.code,
          errorMessage: redactSecrets(state.error.message),
        }
      : {}),
    sources: state.sources,
    steps: allSteps,
    usage: state.usage,
    ...(state.evaluation
      ? {
          evaluation: {
            score: state.evaluation.score,
            verdict: state.verdict ?? 'pass',
            checks: state.evaluation.checks,
          },
        }
      : {}),
  };
}
