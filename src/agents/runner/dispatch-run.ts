import { NothingToResumeError, type RunResult, type StateSchema } from '../../graph/index.ts';
import { type AgentRequest, answersOf } from '../agent-payload.ts';
import { forwardEvents } from '../inner-agent.ts';
import { opsRunInput } from '../ops/build-ops-graph.ts';
import type { InnerAgent } from '../ops/ops-state.ts';
import type { InnerRunSetup } from '../registry/graph-entry.ts';
import type { GraphRegistry } from '../registry/graph-registry.ts';
import type { AgentOptions } from '../types.ts';
import { innerPayload, loopPayload, type Payload } from './run-payload.ts';
import { agentEntryOf, type SessionGraphs } from './session-graph.ts';
import { opsThreadOf } from './session-threads.ts';

/** What a request's work gets: its session, its signal, where its events go. */
export interface WorkContext {
  sessionId: string;
  signal: AbortSignal;
  emit: (name: string, data: unknown) => void;
  streamTokens: boolean;
  /** Who the run serves: the request's owner, else the session's. */
  owner?: string;
}

/**
 * Runs a request on the graphs of `registry`: a new message on the graph it names (else
 * the session's config file graph, else the default), inside the evaluation loop when that
 * graph or the request asks for it; or decisions for the session's paused run, handed to
 * the loop when it paused there, else to the session's graph. An unknown name is an
 * `UnknownGraphError`.
 */
export async function dispatchRequest(
  registry: GraphRegistry,
  sessions: SessionGraphs,
  request: AgentRequest,
  work: WorkContext,
): Promise<Payload> {
  const named = request.options?.graph;
  const asked = named === undefined ? undefined : registry.require(named);
  // A session of a config file graph stays on it unless the request names another.
  const user =
    asked === undefined || asked.builtin
      ? request.resume || asked === undefined
        ? await sessions.userEntry(registry, work.sessionId)
        : undefined
      : asked;
  const loop = registry.evaluationLoop;
  const setup = setupOf(request, work);
  if (request.resume) {
    const answers = answersOf(request.resume.decisions);
    const loopState = await loop.getState(opsThreadOf(work.sessionId));
    const underLoop = loopState?.status === 'interrupted';
    const entry = user ?? (await sessions.agentEntry(registry, work.sessionId));
    const inner = entry.handoff.agent(setup, underLoop);
    if (underLoop) {
      return runInLoop(
        (config) => loop.resumeRun(config.threadId, { ...config, answers }),
        inner,
        work,
      );
    }
    return innerPayload(await inner({ answers }, work));
  }
  const evaluate = asked?.handoff.evaluate === true || request.options?.evaluate === true;
  const message = request.message ?? '';
  const inner = (user ?? asked ?? registry.default).handoff.agent(setup, evaluate);
  if (!evaluate) return innerPayload(await inner({ prompt: message }, work));
  return runInLoop((config) => loop.run(opsRunInput(message) as never, config), inner, work);
}

/**
 * Finishes the run a dead process left behind on the session: the evaluation loop's, when
 * it was running, else its graph's; its interrupted step runs again and the run goes on to
 * its answer. A session with no such run is a `NothingToResumeError`.
 */
export async function resumeLeftBehind(
  registry: GraphRegistry,
  sessions: SessionGraphs,
  work: WorkContext,
): Promise<Payload> {
  const { sessionId } = work;
  const user = await sessions.userEntry(registry, sessionId);
  const state = user
    ? await user.graph.getState(sessionId)
    : await registry.conversation.getState(sessionId);
  const entry = user ?? agentEntryOf(registry, (state?.values as { agent?: string })?.agent);
  const loop = registry.evaluationLoop;
  const loopState = await loop.getState(opsThreadOf(sessionId));
  if (loopState?.status === 'running') {
    return runInLoop(
      (config) => loop.resumeRun(config.threadId, config),
      entry.handoff.agent(setupOf({}, work), true),
      work,
    );
  }
  if (state?.status !== 'running') throw new NothingToResumeError({ threadId: sessionId });
  return innerPayload(await entry.handoff.resume(sessionId, work));
}

/** How a run of the evaluation loop starts (a new run, or a resumed one). */
type LoopRunConfig = {
  threadId: string;
  signal: AbortSignal;
  onEvent: ReturnType<typeof forwardEvents>;
  context: { inner: InnerAgent };
  onPendingRun: 'abandon';
};

/** Runs the evaluation loop on the session's loop thread around `inner`. */
async function runInLoop(
  start: (config: LoopRunConfig) => Promise<RunResult<StateSchema>>,
  inner: InnerAgent,
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
  return loopPayload(result, steps);
}

/** The settings of a request's inner runs. */
function setupOf(request: AgentRequest, work: WorkContext): InnerRunSetup {
  const options: AgentOptions = {
    maxIterations: request.options?.maxIterations ?? 5,
    ...(request.options?.temperature === undefined
      ? {}
      : { temperature: request.options.temperature }),
    ...(request.options?.maxOutputTokens === undefined
      ? {}
      : { maxOutputTokens: request.options.maxOutputTokens }),
    ...(request.owner === undefined || request.options?.longTermMemory === false
      ? {}
      : { memoryOwner: request.owner }),
  };
  return {
    sessionId: work.sessionId,
    options,
    streamTokens: work.streamTokens,
    history: request.resume ? [] : (request.history ?? []),
    ...(work.owner === undefined ? {} : { owner: work.owner }),
  };
}
