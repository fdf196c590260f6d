import { NothingToResumeError, type RunResult, type StateSchema } from '../../graph/index.ts';
import { type AgentRequest, answersOf } from '../agent-payload.ts';
import {
  type GuardSettings,
  guardFields,
  guardInput,
  openRunGuard,
  recordBlockedTurn,
} from '../guard/guard-turn.ts';
import type { RunGuard } from '../guard/run-guard.ts';
import { forwardEvents } from '../inner-agent.ts';
import { opsRunInput } from '../ops/build-ops-graph.ts';
import type { InnerAgent } from '../ops/ops-state.ts';
import { isKorean } from '../prompts.ts';
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
  /** The guardrails of each chat graph (unset: none). */
  guards?: GuardSettings | undefined;
  /** This run's guard, once its graph is known. */
  guard?: RunGuard;
  /** Titles a registered, untitled session by its first message (once input guardrails ran). */
  titleSession?: ((sessionId: string, message: string) => Promise<void>) | undefined;
  /** The request's run id: every new graph run of the request takes it (history steps carry it). */
  runId?: string;
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
  if (request.resume) {
    const answers = answersOf(request.resume.decisions, request.resume.outputs);
    const loopState = await loop.getState(opsThreadOf(work.sessionId));
    const underLoop = loopState?.status === 'interrupted';
    const entry = user ?? (await sessions.agentEntry(registry, work.sessionId));
    const guard = await openRunGuard(work.guards, entry.name, work);
    const setup = setupOf(request, work, guard);
    const inner = entry.handoff.agent(setup, underLoop);
    if (underLoop) {
      return runInLoop(
        (config) => loop.resumeRun(config.threadId, { ...config, answers }),
        inner,
        work,
      );
    }
    return withGuard(innerPayload(await inner({ answers }, work)), guard);
  }
  const evaluate = asked?.handoff.evaluate === true || request.options?.evaluate === true;
  const entry = user ?? asked ?? registry.default;
  const guard = await openRunGuard(work.guards, entry.name, work);
  let message = request.message ?? '';
  let history = request.history ?? [];
  if (guard !== undefined) {
    // The input stage ends before the turn does anything else; a block runs no node.
    const checked = await guardInput(guard, message, history);
    // The message as stored (placeholders for what a guardrail redacted), for the run's record.
    work.emit('input-checked', { message: checked.message });
    if (guard.checksInput) await work.titleSession?.(work.sessionId, checked.message);
    if (checked.blocked) {
      return recordBlockedTurn(
        entry.handoff.thread,
        guard,
        {
          ...work,
          message: checked.message,
          record: checked.record,
          ...(request.messageId === undefined ? {} : { messageId: request.messageId }),
        },
        isKorean(message),
      );
    }
    message = checked.message;
    history = checked.history;
  }
  const setup = setupOf({ ...request, history }, work, guard);
  const inner = entry.handoff.agent(setup, evaluate);
  if (!evaluate) return withGuard(innerPayload(await inner({ prompt: message }, work)), guard);
  return withGuard(
    await runInLoop((config) => loop.run(opsRunInput(message) as never, config), inner, work),
    guard,
  );
}

/** A payload with what the run's guardrails did (and the block that replaced its answer). */
function withGuard(payload: Payload, guard: RunGuard | undefined): Payload {
  return guard === undefined ? payload : { ...payload, ...guardFields(guard) };
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
  runConfig?: AgentRequest['runConfig'],
): Promise<Payload> {
  const limits = runConfig === undefined ? {} : { runConfig };
  const { sessionId } = work;
  const user = await sessions.userEntry(registry, sessionId);
  const state = user
    ? await user.graph.getState(sessionId)
    : await registry.conversation.getState(sessionId);
  const entry = user ?? agentEntryOf(registry, (state?.values as { agent?: string })?.agent);
  const loop = registry.evaluationLoop;
  const loopState = await loop.getState(opsThreadOf(sessionId));
  const guard = await openRunGuard(work.guards, entry.name, work);
  if (loopState?.status === 'running') {
    return withGuard(
      await runInLoop(
        (config) => loop.resumeRun(config.threadId, config),
        entry.handoff.agent(setupOf(limits, work, guard), true),
        work,
      ),
      guard,
    );
  }
  if (state?.status !== 'running') throw new NothingToResumeError({ threadId: sessionId });
  return withGuard(
    innerPayload(
      await entry.handoff.resume(sessionId, {
        ...work,
        ...limits,
        ...(guard === undefined ? {} : { guard }),
      }),
    ),
    guard,
  );
}

/** How a run of the evaluation loop starts (a new run, or a resumed one). */
type LoopRunConfig = {
  threadId: string;
  signal: AbortSignal;
  onEvent: ReturnType<typeof forwardEvents>;
  context: { inner: InnerAgent };
  onPendingRun: 'abandon';
  runId?: string;
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
    ...(work.runId === undefined ? {} : { runId: work.runId }),
  });
  return loopPayload(result, steps);
}

/** The settings of a request's inner runs. */
function setupOf(
  request: AgentRequest,
  work: WorkContext,
  guard?: RunGuard | undefined,
): InnerRunSetup {
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
    ...(request.messageId === undefined || request.resume ? {} : { messageId: request.messageId }),
    ...(request.runConfig === undefined ? {} : { runConfig: request.runConfig }),
    ...(work.owner === undefined ? {} : { owner: work.owner }),
    ...(guard === undefined ? {} : { guard }),
    ...(work.runId === undefined ? {} : { runId: work.runId }),
    ...(request.resume || request.messageId === undefined ? {} : { messageId: request.messageId }),
    additions: {
      ...(request.clientTools === undefined ? {} : { clientTools: request.clientTools }),
      ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
    },
  };
}
