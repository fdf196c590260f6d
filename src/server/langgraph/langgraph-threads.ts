import type { FastifyRequest } from 'fastify';
import type { AgentResponse } from '../../agents/index.ts';
import type { HistoryEntry, StateSchema } from '../../graph/index.ts';
import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from '../routes/route-context.ts';
import {
  type LangGraphInterrupt,
  toLangGraphInterrupt,
  toLangGraphValues,
} from './langgraph-messages.ts';
import type { ThreadReader } from './langgraph-stream.ts';
import { type ThreadFacts, threadOf } from './langgraph-views.ts';

/** The 404 for a thread that is not the caller's (or does not exist). */
export function threadNotFound(threadId: string): HttpError {
  return new HttpError({ status: 404, code: 'not_found', message: `no thread "${threadId}"` });
}

/** The thread id of the path when it is the caller's session; else 404, as an unknown one. */
export async function ownedThread(
  context: RouteContext,
  request: FastifyRequest,
  threadId: string,
): Promise<string> {
  const holder = await context.runtime.sessions.ownerOf(threadId);
  if (holder === undefined || holder !== context.ownerOf(request)) {
    throw threadNotFound(threadId);
  }
  return threadId;
}

/** What the stream translator reads of a thread. */
export function readerOf(context: RouteContext, threadId: string): ThreadReader {
  const { runner } = context.runtime;
  return {
    history: async () => (await runner.threadGraph(threadId)).history(threadId),
    pending: async () => interruptsOf(context, threadId),
  };
}

/**
 * The interrupts a thread waits on, as LangGraph shows them: a chat graph's approvals as
 * human-in-the-loop requests, a graph of the config file's questions as they are.
 */
export async function interruptsOf(
  context: RouteContext,
  threadId: string,
): Promise<LangGraphInterrupt[]> {
  const { runtime } = context;
  const named = await runtime.sessions.graphOf(threadId);
  const entry = named === undefined ? undefined : runtime.graphs.get(named);
  if (entry !== undefined && !entry.chat) {
    const state = await entry.handoff.thread.getState(threadId);
    return (state?.interrupts ?? []).map((pending) => ({ id: pending.id, value: pending.value }));
  }
  return (await approvalsOf(context, threadId)).map(toLangGraphInterrupt);
}

/** The approvals a thread waits on now (the caller's own tools are not approvals). */
export async function approvalsOf(context: RouteContext, threadId: string) {
  const graph = await context.runtime.runner.threadGraph(threadId);
  const state = await graph.getState(threadId);
  return (state?.interrupts ?? []).filter(
    (pending) => (pending.value as { type?: string } | null)?.type !== 'client-tool',
  );
}

/** The stored steps that are fork points (the thread's own, not a subgraph's), oldest first. */
export async function forkPointsOf(
  context: RouteContext,
  threadId: string,
): Promise<HistoryEntry<StateSchema>[]> {
  const graph = await context.runtime.runner.threadGraph(threadId);
  return (await graph.history(threadId)).filter((entry) => entry.path === undefined);
}

/** The graph a thread's runs chose: its user graph, else its last run's. */
export async function graphOfThread(
  context: RouteContext,
  owner: string,
  threadId: string,
): Promise<string | undefined> {
  const named = await context.runtime.sessions.graphOf(threadId);
  if (named !== undefined) return named;
  const [last] = await context.runs.store.list({ owner, sessionId: threadId, limit: 1 });
  return last?.graph;
}

/** A thread as LangGraph's Thread. */
export async function threadView(
  context: RouteContext,
  owner: string,
  threadId: string,
  createdAt?: number,
): Promise<Record<string, unknown>> {
  const { runner } = context.runtime;
  const graph = await runner.threadGraph(threadId);
  const state = await graph.getState(threadId);
  const first = createdAt ?? (await graph.history(threadId))[0]?.createdAt ?? Date.now();
  const facts: ThreadFacts = {
    threadId,
    createdAt: first,
    state,
    busy:
      runner.isRunning(threadId) ||
      context.runs.liveOf(threadId).length > 0 ||
      (await context.queue.busy(threadId)),
    pending: await interruptsOf(context, threadId),
    graph: await graphOfThread(context, owner, threadId),
    metadata: await threadMetadataOf(context, threadId),
  };
  return threadOf(facts);
}

/** The metadata a thread was given: its session's (shared with its OpenAI conversation). */
export async function threadMetadataOf(
  context: RouteContext,
  threadId: string,
): Promise<Record<string, string>> {
  return (await context.runtime.responses.conversation(threadId))?.metadata ?? {};
}

/** Merges `given` into the thread's metadata (what its OpenAI conversation shows too). */
export async function mergeThreadMetadata(
  context: RouteContext,
  owner: string,
  threadId: string,
  given: Record<string, string>,
): Promise<void> {
  const stored = await context.runtime.responses.conversation(threadId);
  await context.runtime.responses.saveConversation({
    sessionId: threadId,
    owner,
    createdAt: stored?.createdAt ?? Math.floor(Date.now() / 1000),
    metadata: { ...stored?.metadata, ...given },
  });
}

/**
 * The final values a wait or join answers: the thread's state, with `__interrupt__` when the
 * run paused and `__error__` when it failed.
 */
export async function finalValues(
  context: RouteContext,
  threadId: string,
  answer: Pick<AgentResponse, 'status' | 'error' | 'errorCode' | 'response'> | undefined,
  failure?: { code: string; message: string },
): Promise<Record<string, unknown>> {
  const graph = await context.runtime.runner.threadGraph(threadId);
  const values = toLangGraphValues((await graph.getState(threadId))?.values ?? {});
  if (failure !== undefined) {
    return { ...values, __error__: { error: failure.code, message: failure.message } };
  }
  if (answer?.error) {
    return { ...values, __error__: { error: answer.errorCode, message: answer.response } };
  }
  if (answer?.status === 'interrupted') {
    const interrupts = await interruptsOf(context, threadId);
    return { ...values, __interrupt__: interrupts };
  }
  return values;
}
