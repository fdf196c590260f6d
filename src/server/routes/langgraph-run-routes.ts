import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { graphNameOf } from '../../agents/index.ts';
import { defineRoute, eventStream, type Route } from '../http/define-route.ts';
import { errorResponse } from '../http/http-error.ts';
import { executeLangGraphRun, type RunEnding } from '../langgraph/execute-langgraph-run.ts';
import { runMetadataOf, runRequestBody, storedChoiceOf } from '../langgraph/langgraph-run-body.ts';
import { openLangGraphStream } from '../langgraph/langgraph-sse.ts';
import { LangGraphStreamTranslator } from '../langgraph/langgraph-stream.ts';
import { finalValues, readerOf } from '../langgraph/langgraph-threads.ts';
import { runOf } from '../langgraph/langgraph-views.ts';
import { type PreparedRun, prepareLangGraphRun } from '../langgraph/prepare-langgraph-run.ts';
import { arrivalOf } from '../runs/run-request.ts';
import { startBackgroundGraphRun } from '../runs/start-background-graph-run.ts';
import { startBackgroundRun } from '../runs/start-background-run.ts';
import { deleteSession } from '../sessions/delete-session.ts';
import { answersStreamLive } from './answers-stream-live.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const threadParams = z.object({ thread_id: z.string().min(1).max(200) });
const runErrors = [401, 404, 409, 413, 422, 429, 500, 503];

/**
 * LangGraph's run-starting routes: `POST /threads/:thread_id/runs` (background, answered at
 * once), `…/runs/wait` (the final values) and `…/runs/stream` (SSE), and the stateless
 * `POST /runs`, `/runs/wait`, `/runs/stream`, whose thread is deleted after the run unless
 * `on_completion: "keep"` or it paused. Each runs a turn of the thread's session through the
 * same path as `/api` (the session's line, `onBusy`, limits, guardrails, approvals).
 */
export function langGraphRunStartRoutes(context: RouteContext): Route[] {
  const { runtime } = context;
  const pathOf = (run: PreparedRun, runId: string) =>
    run.stateless ? `/runs/${runId}` : `/threads/${run.threadId}/runs/${runId}`;

  /** A stateless run's thread goes once the run ended, unless kept or paused. */
  const tidy = async (run: PreparedRun, answer: RunEnding | undefined) => {
    if (!run.stateless || run.body.on_completion === 'keep') return;
    if (answer?.status === 'interrupted') return;
    await deleteSession(runtime, run.threadId).catch(() => undefined);
  };

  const prepare = (request: FastifyRequest) => {
    const { thread_id: threadId } = (request.params ?? {}) as { thread_id?: string };
    return prepareLangGraphRun(context, request, { threadId, raw: request.body });
  };

  /** A signal that stops the run when the client leaves, if the request asks so. */
  const leaving = (run: PreparedRun, reply: FastifyReply): AbortSignal | undefined => {
    if (run.body.on_disconnect !== 'cancel') return undefined;
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('the client left'));
    });
    return controller.signal;
  };

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const run = await prepare(request);
    const { runId } = run;
    if (run.kind === 'graph') {
      const arrivedAt = arrivalOf(reply);
      const call = { ...run.graphCall, stream: storedChoiceOf(run.stream) };
      const record = await startBackgroundGraphRun(context, call, async (graphCall) => {
        const ending = await executeLangGraphRun(context, { ...run, graphCall }, { arrivedAt });
        await tidy(run, ending);
      });
      return reply
        .header('content-location', pathOf(run, runId))
        .send(runOf(record, run.body.multitask_strategy));
    }
    const metadata = runMetadataOf(run.body);
    const record = await startBackgroundRun(context, run.call, {
      source: 'langgraph',
      runId,
      admission: run.admission,
      arrivedAt: arrivalOf(reply),
      stream: storedChoiceOf(run.stream),
      ...(metadata === undefined ? {} : { metadata }),
      ...(run.webhook === undefined ? {} : { webhook: run.webhook }),
    });
    if (record === undefined) throw new Error('a new run’s id was taken');
    return reply
      .header('content-location', pathOf(run, record.runId))
      .send(runOf(record, run.body.multitask_strategy));
  };

  const wait = async (request: FastifyRequest, reply: FastifyReply) => {
    const run = await prepare(request);
    const signal = leaving(run, reply);
    let ending: RunEnding | undefined;
    let failure: { code: string; message: string } | undefined;
    let began = false;
    try {
      ending = await executeLangGraphRun(context, run, {
        arrivedAt: arrivalOf(reply),
        onEvent: () => {
          began = true;
        },
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      // A run that never began is refused as the error it is; one that failed answers `__error__`.
      if (!began) throw error;
      failure = errorResponse(error).body.error;
    }
    const values = await finalValues(context, run.threadId, ending, failure);
    await tidy(run, ending);
    return reply.header('content-location', pathOf(run, run.runId)).send(values);
  };

  const stream = async (request: FastifyRequest, reply: FastifyReply) => {
    const run = await prepare(request);
    const { runId, after } = run;
    let translator: LangGraphStreamTranslator | undefined;
    let sink: ReturnType<typeof openLangGraphStream> | undefined;
    const open = () => {
      sink ??= openLangGraphStream(reply, {
        runPath: pathOf(run, runId),
        threadId: run.threadId,
        runId,
        ...run.stream,
      });
      const opened = sink;
      translator ??= new LangGraphStreamTranslator({
        runId,
        threadId: run.threadId,
        after,
        reader: readerOf(context, run.threadId),
        live: answersStreamLive(
          context,
          run.kind === 'agent' ? graphNameOf(run.call.options) : run.graphCall.name,
        ),
        emit: (event) => opened.send(event),
      });
      return translator;
    };
    const signal = leaving(run, reply);
    let ending: RunEnding | undefined;
    try {
      ending = await executeLangGraphRun(context, run, {
        arrivedAt: arrivalOf(reply),
        ...(signal === undefined ? {} : { signal }),
        onEvent: (entry) => void open().push(entry),
      });
    } catch (error) {
      if (translator === undefined) throw error;
    }
    await translator?.push({ event: 'end', data: null });
    await tidy(run, ending);
    sink?.close();
    return reply;
  };

  const routesOf = (base: string, stateless: boolean): Route[] => {
    const params = stateless ? {} : { params: threadParams };
    const where = stateless ? 'on a new thread (deleted after, unless kept)' : 'on the thread';
    const id = stateless ? 'Stateless' : 'Thread';
    return [
      defineRoute({
        method: 'POST',
        path: base,
        scope: 'yeoul:write',
        operationId: `langGraphCreate${id}Run`,
        summary: `LangGraph: start a run ${where} in the background; the Run at once`,
        request: { ...params, body: runRequestBody },
        responses: { 200: { description: 'the run', schema: json } },
        errors: runErrors,
        handler: create,
      }),
      defineRoute({
        method: 'POST',
        path: `${base}/wait`,
        scope: 'yeoul:write',
        operationId: `langGraphWait${id}Run`,
        summary: `LangGraph: run ${where} and answer its final values`,
        request: { ...params, body: runRequestBody },
        responses: { 200: { description: 'the final values', schema: json } },
        errors: runErrors,
        handler: wait,
      }),
      defineRoute({
        method: 'POST',
        path: `${base}/stream`,
        scope: 'yeoul:write',
        operationId: `langGraphStream${id}Run`,
        summary: `LangGraph: run ${where}, its events as SSE (values, updates, messages-tuple)`,
        request: { ...params, body: runRequestBody },
        responses: { 200: { description: 'text/event-stream', content: eventStream } },
        errors: runErrors,
        handler: stream,
      }),
    ];
  };

  return [...routesOf('/threads/:thread_id/runs', false), ...routesOf('/runs', true)];
}
