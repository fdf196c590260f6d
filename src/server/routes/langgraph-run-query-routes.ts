import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AgentResponse } from '../../agents/index.ts';
import { defineRoute, eventStream, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { rejoinChoiceOf } from '../langgraph/langgraph-run-body.ts';
import { lastEventNumber, openLangGraphStream } from '../langgraph/langgraph-sse.ts';
import { LangGraphStreamTranslator } from '../langgraph/langgraph-stream.ts';
import { finalValues, ownedThread, readerOf } from '../langgraph/langgraph-threads.ts';
import { runOf } from '../langgraph/langgraph-views.ts';
import { cancelRun } from '../runs/cancel-run.ts';
import { hasEnded } from '../runs/run-ledger.ts';
import type { RunRecord } from '../runs/run-store.ts';
import { streamRun } from '../runs/stream-run.ts';
import { answersStreamLive } from './answers-stream-live.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const threadParams = z.object({ thread_id: z.string().min(1).max(200) });
const runParams = threadParams.extend({ run_id: z.string().min(1).max(200) });
const disconnectQuery = z.object({ cancel_on_disconnect: z.enum(['0', '1']).optional() });

/** How long a join waits at most before it looks again (it waits on until the run ends). */
const joinRoundMs = 30_000;

/**
 * LangGraph's routes over a thread's runs: list (every run of the session, whichever surface
 * started it), get, join (waits; the final values), its event stream (after Last-Event-ID),
 * and cancel. Another owner's thread or run is 404.
 */
export function langGraphRunQueryRoutes(context: RouteContext): Route[] {
  /** The caller's run of the caller's thread, or 404. */
  const ownedRun = async (request: FastifyRequest): Promise<RunRecord> => {
    const { thread_id: threadId, run_id: runId } = request.params as {
      thread_id: string;
      run_id: string;
    };
    await ownedThread(context, request, threadId);
    const run = await context.runs.store.get(runId);
    if (run === undefined || run.sessionId !== threadId) {
      throw new HttpError({ status: 404, code: 'not_found', message: `no run "${runId}"` });
    }
    return run;
  };

  /** Cancels the run when this client leaves, if it asked so. */
  const cancelOnLeave = (request: FastifyRequest, run: RunRecord, leave: () => boolean) => {
    const { cancel_on_disconnect: asked } = request.query as { cancel_on_disconnect?: string };
    if (asked !== '1') return;
    request.raw.on('close', () => {
      if (leave()) void cancelRun(context, run).catch(() => undefined);
    });
  };

  const listRuns = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/runs',
    scope: 'yeoul:read',
    operationId: 'langGraphListRuns',
    summary: 'LangGraph: the thread’s runs, newest first',
    request: {
      params: threadParams,
      query: z.object({
        limit: z.coerce.number().int().min(1).max(1000).optional(),
        offset: z.coerce.number().int().min(0).optional(),
        status: z.string().optional(),
      }),
    },
    responses: { 200: { description: 'the runs', schema: z.array(json) } },
    errors: [401, 404, 422],
    handler: async (request, _reply, input) => {
      const { thread_id: threadId } = input.params();
      await ownedThread(context, request, threadId);
      const { limit = 10, offset = 0, status } = input.query();
      const runs = await context.runs.store.list({
        owner: context.ownerOf(request),
        sessionId: threadId,
        limit: limit + offset,
      });
      // Listed runs come without their answers: each is read whole for its guardrail.
      const whole = await Promise.all(
        runs.map(async (run) => (await context.runs.store.get(run.runId)) ?? run),
      );
      const shown = whole.map((run) => runOf(run));
      return shown.filter((run) => status === undefined || run.status === status).slice(offset);
    },
  });

  const getRun = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/runs/:run_id',
    scope: 'yeoul:read',
    operationId: 'langGraphGetRun',
    summary: 'LangGraph: one run of the thread',
    request: { params: runParams },
    responses: { 200: { description: 'the run', schema: json } },
    errors: [401, 404],
    handler: async (request) => runOf(await ownedRun(request)),
  });

  const joinRun = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/runs/:run_id/join',
    scope: 'yeoul:read',
    operationId: 'langGraphJoinRun',
    summary: 'LangGraph: wait for the run to end; its final values',
    request: { params: runParams, query: disconnectQuery },
    responses: { 200: { description: 'the final values', schema: json } },
    errors: [401, 404],
    handler: async (request) => {
      let run = await ownedRun(request);
      let waiting = true;
      cancelOnLeave(request, run, () => waiting);
      while (!hasEnded(run.status) && run.status !== 'interrupted') {
        run = (await context.runs.settled(run.runId, joinRoundMs)) ?? run;
      }
      waiting = false;
      const answer = run.result as AgentResponse | undefined;
      return finalValues(context, run.sessionId, answer, run.error);
    },
  });

  const joinStream = defineRoute({
    method: 'GET',
    path: '/threads/:thread_id/runs/:run_id/stream',
    scope: 'yeoul:read',
    operationId: 'langGraphJoinRunStream',
    summary: 'LangGraph: the run’s events after Last-Event-ID (from its start without), then live',
    request: {
      params: runParams,
      query: disconnectQuery.extend({
        stream_mode: z.union([z.string(), z.array(z.string())]).optional(),
      }),
      headers: z.object({ 'Last-Event-ID': z.string().optional() }),
    },
    responses: { 200: { description: 'text/event-stream', content: eventStream } },
    errors: [401, 404],
    handler: async (request, reply) => {
      const run = await ownedRun(request);
      const { stream_mode: asked } = request.query as { stream_mode?: string | string[] };
      const sink = openLangGraphStream(
        reply,
        {
          runPath: `/threads/${run.sessionId}/runs/${run.runId}`,
          threadId: run.sessionId,
          runId: run.runId,
          ...rejoinChoiceOf(run.stream, asked),
        },
        lastEventNumber(request.headers['last-event-id'], run.runId),
      );
      const translator = new LangGraphStreamTranslator({
        runId: run.runId,
        threadId: run.sessionId,
        after: 'join',
        reader: readerOf(context, run.sessionId),
        live: answersStreamLive(context, run.graph),
        emit: (event) => sink.send(event),
      });
      let following = true;
      cancelOnLeave(request, run, () => following);
      const stop = streamRun(context, run, undefined, {
        write: (entry) => void translator.push(entry),
        close: () => {
          following = false;
          void translator.push({ event: 'end', data: null }).finally(() => sink.close());
        },
        ping: () => {
          if (!sink.closed()) reply.raw.write(': ping\n\n');
        },
        closed: sink.closed,
      });
      reply.raw.on('close', () => {
        stop();
        sink.close();
      });
      return reply;
    },
  });

  const cancel = defineRoute({
    method: 'POST',
    path: '/threads/:thread_id/runs/:run_id/cancel',
    scope: 'yeoul:write',
    operationId: 'langGraphCancelRun',
    summary:
      'LangGraph: cancel the run (`wait=1`: answer once it stopped; `action=rollback`: its steps removed)',
    request: {
      params: runParams,
      query: z.object({
        wait: z.enum(['0', '1', 'true', 'false']).optional(),
        action: z.enum(['interrupt', 'rollback']).optional(),
      }),
    },
    responses: { 202: { description: 'cancelling' }, 204: { description: 'stopped' } },
    errors: [401, 404, 409, 422],
    handler: async (request, reply, input) => {
      const run = await ownedRun(request);
      const { wait, action } = input.query();
      await cancelRun(context, run, { rollback: action === 'rollback' });
      if (wait === '1' || wait === 'true') {
        await context.runs.settled(run.runId, 30_000);
        return reply.code(204).send();
      }
      return reply.code(202).send();
    },
  });

  return [listRuns, getRun, joinRun, joinStream, cancel];
}
