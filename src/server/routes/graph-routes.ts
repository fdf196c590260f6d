import type { FastifyReply, FastifyRequest } from 'fastify';
import { createId } from '../../core/index.ts';
import type { GraphEvent, StateSchema } from '../../graph/index.ts';
import { graphListSchema, graphRunBody, graphRunResponseSchema } from '../../protocol/index.ts';
import {
  defineRoute,
  eventStream,
  type RouteGroup,
  type RouteInput,
} from '../http/define-route.ts';
import { checkGraphInput, type GraphRunBody, graphParams } from '../http/graph-run-schemas.ts';
import { errorResponse } from '../http/http-error.ts';
import { sseHeaders, sseWriter } from '../http/sse.ts';
import { admitRun } from '../runs/admit-run.ts';
import { graphStreamEventOf, runGraphCall } from '../runs/run-graph-call.ts';
import { arrivalOf } from '../runs/run-request.ts';
import { requireUserGraph } from '../runtime/graph-names.ts';
import type { RouteContext } from './route-context.ts';

/** What a graph run takes: the graph's name in the path, a state update or answers in the body. */
const graphRunRequest = { params: graphParams, body: graphRunBody };

/**
 * GET /api/graphs (every graph, built-in and the config file's, drawn as Mermaid) and the
 * generic run API of the config file's graphs: POST /api/graphs/:name/invoke (a state
 * update in, the state out) and /stream (the run's events as Server-Sent Events).
 */
export function graphRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;
  const listGraphs = defineRoute({
    method: 'GET',
    path: '/api/graphs',
    scope: 'yeoul:read',
    operationId: 'listGraphs',
    summary: 'The built-in and user graphs, with Mermaid flowcharts',
    responses: { 200: { description: 'graphs', schema: graphListSchema } },
    handler: async () => ({
      graphs: runtime.graphs.entries.map((entry) => ({
        name: entry.name,
        chat: entry.chat,
        builtin: entry.builtin,
        mermaid: entry.graph.toMermaid(),
      })),
    }),
  });

  /** Checks the request and claims its thread; the run itself goes in `start`. */
  const prepare = async (
    request: FastifyRequest,
    reply: FastifyReply,
    input: RouteInput<typeof graphRunRequest>,
  ) => {
    const arrivedAt = arrivalOf(reply);
    const { name } = input.params();
    const entry = requireUserGraph(runtime, name);
    const body = input.body();
    if (body.input) checkGraphInput(name, entry.graph.schema, body.input);
    const threadId = body.threadId ?? createId();
    const owner = context.ownerOf(request);
    let created = false;
    if (body.resume) await runtime.sessions.check(threadId, owner);
    else created = await runtime.sessions.claim(threadId, owner, titleOfInput(body.input), name);
    const admission = await admitRun(context, request, owner, created ? threadId : undefined);
    // Decisions go on under the paused run's id.
    const runId = body.resume
      ? ((await entry.graph.getState(threadId))?.runId ?? createId())
      : createId();
    return { name, graph: entry.graph, body, threadId, owner, arrivedAt, admission, runId };
  };

  /** Runs (or resumes) the graph on the thread in its place in the thread's line. */
  const start = (
    prepared: Awaited<ReturnType<typeof prepare>>,
    signal: AbortSignal,
    onEvent?: (event: GraphEvent<StateSchema>) => void,
  ) => {
    const { body } = prepared;
    return runGraphCall(
      context,
      {
        ...prepared,
        ...(body.input === undefined ? {} : { input: body.input }),
        ...(body.resume === undefined ? {} : { answers: body.resume.answers }),
      },
      { signal, ...(onEvent === undefined ? {} : { onEvent }) },
    );
  };

  const invokeGraph = defineRoute({
    method: 'POST',
    path: '/api/graphs/:name/invoke',
    scope: 'yeoul:write',
    operationId: 'invokeGraph',
    summary: 'Run any graph on a state update, on a new thread or a continued one',
    request: graphRunRequest,
    responses: { 200: { description: 'the run', schema: graphRunResponseSchema } },
    errors: [400, 401, 404, 409, 429],
    handler: async (request, reply, input) => {
      const prepared = await prepare(request, reply, input);
      const controller = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableEnded) controller.abort(new Error('the client went away'));
      });
      return start(prepared, controller.signal);
    },
  });

  const streamGraph = defineRoute({
    method: 'POST',
    path: '/api/graphs/:name/stream',
    scope: 'yeoul:write',
    operationId: 'streamGraph',
    summary:
      'Run any graph and stream its events (Server-Sent Events: step, custom, interrupt, done)',
    request: graphRunRequest,
    responses: {
      200: {
        description: 'text/event-stream; the `done` event carries the invoke answer',
        content: eventStream,
      },
    },
    errors: [400, 401, 404, 409, 429],
    handler: async (request, reply, input) => {
      const prepared = await prepare(request, reply, input);
      const controller = new AbortController();
      // Recorded as an agent run's events are: a client that drops rejoins the run with
      // GET /api/sessions/:id/stream and Last-Event-ID, and the run goes on without it.
      // Decisions number their events past the paused part's (seconds since 1970).
      const firstN = prepared.body.resume ? Math.floor(Date.now() / 1000) : 1;
      const stream = context.streams.open(prepared.threadId, prepared.runId, firstN);
      let writer: ReturnType<typeof sseWriter> | undefined;
      const send = (event: string, data: unknown) => {
        const entry = stream.push(event, data);
        if (writer === undefined) {
          reply.hijack();
          reply.raw.writeHead(200, { ...sseHeaders, 'x-request-id': request.id });
          writer = sseWriter(reply.raw);
          reply.raw.on('close', () => writer?.close());
        }
        writer.write(entry);
      };
      try {
        const body = await start(prepared, controller.signal, (event) => {
          const forwarded = graphStreamEventOf(event);
          if (forwarded) send(forwarded.event, forwarded.data);
        });
        send('done', body);
      } catch (error) {
        if (writer === undefined) throw error;
        send('error', errorResponse(error).body.error);
      } finally {
        context.streams.finish(stream);
        writer?.close();
      }
    },
  });

  return {
    tag: {
      name: 'graphs',
      description: 'Every graph, and the run API of the config file’s graphs',
    },
    routes: [listGraphs, invokeGraph, streamGraph],
  };
}

/** A thread's title from its first input: its text, when it has some. */
function titleOfInput(input: GraphRunBody['input']): string {
  const text = JSON.stringify(input ?? {});
  return text === '{}' ? '' : text;
}
