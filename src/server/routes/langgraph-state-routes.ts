import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GraphEntry } from '../../agents/index.ts';
import type { StateSchema, UpdateOf } from '../../graph/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { checkGraphInput } from '../http/graph-run-schemas.ts';
import { HttpError } from '../http/http-error.ts';
import { invalidInput, parseLangGraph, refuseUnsupported } from '../langgraph/langgraph-fields.ts';
import { fromLangChainMessage } from '../langgraph/langgraph-messages.ts';
import {
  forkPointsOf,
  graphOfThread,
  interruptsOf,
  ownedThread,
} from '../langgraph/langgraph-threads.ts';
import { stateAt } from '../langgraph/langgraph-views.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const threadParams = z.object({ thread_id: z.string().min(1).max(200) });
const historyBody = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  before: z
    .object({
      checkpoint_id: z.string().optional(),
      configurable: z.object({ checkpoint_id: z.string().optional() }).optional(),
    })
    .optional(),
});
const updateBody = z.object({
  values: z.record(z.string(), z.unknown()),
  as_node: z.string().min(1).max(64).optional(),
  checkpoint_id: z.string().optional(),
  checkpoint: z.object({ checkpoint_id: z.string().optional() }).optional(),
});
const checkpointFields = { checkpoint_id: true, thread_id: true, checkpoint_ns: true } as const;

/**
 * LangGraph's view of a thread's state: now or at a fork point (a stored step of its
 * history), the history of fork points newest first, and a state update (a step of its own).
 */
export function langGraphStateRoutes(context: RouteContext): Route[] {
  const { runtime } = context;

  /** The thread's state at a fork point (the latest when none is named). */
  const stateOf = async (request: FastifyRequest, threadId: string, step?: string) => {
    await ownedThread(context, request, threadId);
    const points = await forkPointsOf(context, threadId);
    const index =
      step === undefined ? points.length - 1 : points.findIndex((p) => String(p.step) === step);
    const point = points[index];
    if (point === undefined) {
      throw new HttpError({ status: 404, code: 'not_found', message: `no checkpoint "${step}"` });
    }
    const latest = index === points.length - 1;
    const pending = latest ? await interruptsOf(context, threadId) : [];
    return stateAt(threadId, point, points[index - 1]?.step, pending);
  };

  const getState = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/state',
    scope: 'yeoul:read',
    operationId: 'langGraphGetThreadState',
    summary: 'LangGraph: the thread’s state at its latest fork point',
    request: { params: threadParams },
    responses: { 200: { description: 'the state', schema: json } },
    errors: [401, 404],
    handler: (request, _reply, input) => stateOf(request, input.params().thread_id),
  });

  const getStateAt = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/state/:checkpoint_id',
    scope: 'yeoul:read',
    operationId: 'langGraphGetThreadStateAt',
    summary: 'LangGraph: the thread’s state at a fork point (a step of its history)',
    request: { params: threadParams.extend({ checkpoint_id: z.string().min(1).max(40) }) },
    responses: { 200: { description: 'the state', schema: json } },
    errors: [401, 404],
    handler: (request, _reply, input) => {
      const { thread_id: threadId, checkpoint_id: step } = input.params();
      return stateOf(request, threadId, step);
    },
  });

  const getHistory = defineRoute({
    method: 'POST',
    path: '/threads/:thread_id/history',
    scope: 'yeoul:read',
    operationId: 'langGraphThreadHistory',
    summary: 'LangGraph: the states at the thread’s fork points, newest first',
    request: { params: threadParams, body: historyBody },
    responses: { 200: { description: 'the states', schema: z.array(json) } },
    errors: [401, 404, 422],
    handler: async (request, _reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      refuseUnsupported(request.body, {
        limit: true,
        before: {
          checkpoint_id: true,
          configurable: { checkpoint_id: true, thread_id: true, checkpoint_ns: true },
          thread_id: true,
          checkpoint_ns: true,
        },
      });
      const body = parseLangGraph(historyBody, request.body);
      const points = await forkPointsOf(context, threadId);
      const before = body.before?.checkpoint_id ?? body.before?.configurable?.checkpoint_id;
      const pending = await interruptsOf(context, threadId);
      const states = points.map((point, index) =>
        stateAt(
          threadId,
          point,
          points[index - 1]?.step,
          index === points.length - 1 ? pending : [],
        ),
      );
      const kept =
        before === undefined
          ? states
          : states.filter((_state, index) => (points[index]?.step ?? 0) < Number(before));
      return kept.reverse().slice(0, body.limit ?? 10);
    },
  });

  const updateState = defineRoute({
    method: 'POST',
    path: '/threads/:thread_id/state',
    scope: 'yeoul:write',
    operationId: 'langGraphUpdateThreadState',
    summary: 'LangGraph: apply values to the thread’s state as an update step',
    request: { params: threadParams, body: updateBody },
    responses: { 200: { description: 'the new checkpoint', schema: json } },
    errors: [401, 404, 409, 422],
    handler: async (request, _reply, input) => {
      const threadId = await ownedThread(context, request, input.params().thread_id);
      const named = await runtime.sessions.graphOf(threadId);
      const entry = named === undefined ? undefined : runtime.graphs.get(named);
      // A chat graph's update is LangChain messages; another graph's any of its channels.
      refuseUnsupported(request.body, {
        values: entry === undefined || entry.chat ? { messages: true } : true,
        as_node: true,
        checkpoint_id: true,
        checkpoint: checkpointFields,
      });
      const body = parseLangGraph(updateBody, request.body);
      const graph = await runtime.runner.threadGraph(threadId);
      // The nodes the thread's steps name: those of the graph its runs chose.
      const chosen = await graphOfThread(context, context.ownerOf(request), threadId);
      const { nodes } =
        (chosen === undefined ? undefined : runtime.graphs.get(chosen))?.handoff.thread ?? graph;
      if (body.as_node !== undefined && !nodes.has(body.as_node)) {
        const names = [...nodes.keys()].join(', ');
        throw invalidInput('as_node', `"${body.as_node}" is not a node of the graph (${names})`);
      }
      const points = await forkPointsOf(context, threadId);
      const asked = body.checkpoint_id ?? body.checkpoint?.checkpoint_id;
      if (asked !== undefined && asked !== String(points.at(-1)?.step)) {
        throw invalidInput('checkpoint_id', 'only the thread’s latest checkpoint can be updated');
      }
      const update =
        entry === undefined || entry.chat
          ? { messages: messagesOf(body.values.messages) }
          : checkedUpdate(entry, body.values);
      await refuseWhileBusy(context, threadId);
      await graph.updateState(threadId, update as UpdateOf<StateSchema>, {
        asNode: body.as_node ?? 'update',
      });
      const latest = (await forkPointsOf(context, threadId)).at(-1)?.step ?? 0;
      return {
        checkpoint: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: String(latest) },
      };
    },
  });

  return [getState, getStateAt, getHistory, updateState];
}

/** 409 while a run goes on the thread (`session_busy`) or it waits for a decision. */
async function refuseWhileBusy(context: RouteContext, threadId: string): Promise<void> {
  const busy =
    context.runtime.runner.isRunning(threadId) ||
    context.runs.liveOf(threadId).length > 0 ||
    (await context.queue.busy(threadId));
  if (busy) {
    throw new HttpError({
      status: 409,
      code: 'session_busy',
      message: `thread "${threadId}" has a run going`,
    });
  }
  if ((await interruptsOf(context, threadId)).length > 0) {
    throw new HttpError({
      status: 409,
      code: 'awaiting_approval',
      message: `thread "${threadId}" waits for a decision`,
    });
  }
}

/** A chat graph's update: the LangChain messages given (one or a list) as Yeoul's. */
function messagesOf(given: unknown) {
  const list = Array.isArray(given) ? given : given === undefined ? [] : [given];
  return list.map((message, index) => fromLangChainMessage(message, `values.messages.${index}`));
}

/** Another graph's update, checked against its channels as a run's `input` is. */
function checkedUpdate(entry: GraphEntry, values: Record<string, unknown>) {
  try {
    checkGraphInput(entry.name, entry.graph.schema, values);
    return values;
  } catch (error) {
    if (error instanceof HttpError) throw invalidInput('values', error.message);
    throw error;
  }
}
