import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  runBody,
  runCancelledSchema,
  runListQuery,
  runListSchema,
  runParams,
  runSchema,
  runStartedSchema,
  runWaitQuery,
} from '../../protocol/index.ts';
import { parseWebhook } from '../../webhooks/index.ts';
import { defineRoute, eventStream, type RouteGroup } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { sseHeaders, sseWriter } from '../http/sse.ts';
import { cancelRun } from '../runs/cancel-run.ts';
import { arrivalOf } from '../runs/run-request.ts';
import type { RunRecord, RunStatus } from '../runs/run-store.ts';
import { webhookViewOf } from '../runs/run-webhooks.ts';
import { startBackgroundRun } from '../runs/start-background-run.ts';
import { streamRun } from '../runs/stream-run.ts';
import { prepareAgentCall } from './prepare-agent-call.ts';
import type { RouteContext } from './route-context.ts';

/** The statuses starting a run is refused with (as invoke's). */
const startErrors = [400, 401, 404, 409, 413, 429, 500, 503];

/**
 * Runs that go on whoever watches: POST /api/runs answers 202 at once and the run goes in
 * the background; GET /api/runs/:id (optionally waiting), its event stream, the caller's
 * runs, and cancelling one. A run is its owner's: another owner's is 404 `run_not_found`.
 */
export function runRoutes(context: RouteContext): RouteGroup {
  const { runs } = context;

  /** The caller's run, or 404 as for an unknown one. */
  const ownedRun = async (request: FastifyRequest, id: string): Promise<RunRecord> => {
    const run = await runs.store.get(id);
    if (run === undefined || run.owner !== context.ownerOf(request)) {
      throw new HttpError({ status: 404, code: 'run_not_found', message: `no run "${id}"` });
    }
    return run;
  };

  const createRun = defineRoute({
    method: 'POST',
    path: '/api/runs',
    scope: 'yeoul:write',
    operationId: 'createRun',
    summary:
      'Start a run in the background (the invoke body plus `webhook`): 202 at once, the run goes on alone',
    request: { body: runBody },
    responses: { 202: { description: 'the run, started', schema: runStartedSchema } },
    errors: startErrors,
    handler: async (request, reply, input) => {
      const { webhook: given, ...body } = input.body();
      // A webhook is checked before anything is created: a refusal leaves no run and no session.
      const webhook =
        given === undefined
          ? undefined
          : await parseWebhook(given, context.runtime.webhookSettings);
      if (webhook !== undefined && 'code' in webhook) {
        throw new HttpError({ status: 400, code: webhook.code, message: webhook.message });
      }
      const { call, admission } = await prepareAgentCall(context, request, body);
      const run = await startBackgroundRun(context, call, {
        source: 'api',
        admission,
        arrivedAt: arrivalOf(reply),
        ...(webhook === undefined ? {} : { webhook }),
      });
      if (run === undefined) throw new Error('a new run’s id was taken');
      const { runId, sessionId, status, createdAt } = run;
      return reply
        .code(202)
        .header('location', `/api/runs/${runId}`)
        .send({ runId, sessionId, status, createdAt });
    },
  });

  const getRun = defineRoute({
    method: 'GET',
    path: '/api/runs/:id',
    scope: 'yeoul:read',
    operationId: 'getRun',
    summary: 'A run; `wait=N` (1–60 s) answers once it is no longer queued or running',
    request: { params: runParams, query: runWaitQuery },
    responses: { 200: { description: 'the run', schema: runSchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) => {
      const { id } = input.params();
      const { wait } = input.query();
      const run = await ownedRun(request, id);
      const seen = wait === undefined ? run : ((await runs.settled(id, wait * 1000)) ?? run);
      const webhook = await webhookViewOf(context.runtime.webhooks, seen);
      return webhook === undefined ? shownRun(seen) : { ...shownRun(seen), webhook };
    },
  });

  const streamRunEvents = defineRoute({
    method: 'GET',
    path: '/api/runs/:id/stream',
    scope: 'yeoul:read',
    operationId: 'streamRun',
    summary:
      'A run’s events from its first (or after Last-Event-ID), then live until `done`; `: ping` while queued',
    request: {
      params: runParams,
      headers: z.object({ 'Last-Event-ID': z.string().optional() }),
    },
    responses: { 200: { description: 'text/event-stream', content: eventStream } },
    errors: [400, 401, 404],
    handler: async (request, reply, input) => {
      const { id } = input.params();
      const run = await ownedRun(request, id);
      const lastEventId = request.headers['last-event-id'];
      openStream(reply, request.id, (write, close) =>
        streamRun(context, run, typeof lastEventId === 'string' ? lastEventId : undefined, {
          write,
          close,
          ping: () => reply.raw.write(': ping\n\n'),
          closed: () => reply.raw.destroyed || reply.raw.writableEnded,
        }),
      );
    },
  });

  const listRuns = defineRoute({
    method: 'GET',
    path: '/api/runs',
    scope: 'yeoul:read',
    operationId: 'listRuns',
    summary: 'The caller’s runs, newest first (without results), by session, status or schedule',
    request: { query: runListQuery },
    responses: { 200: { description: 'the runs', schema: runListSchema } },
    errors: [400, 401],
    handler: async (request, _reply, input) => {
      const query = input.query();
      const listed = await runs.store.list({
        owner: context.ownerOf(request),
        ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
        ...(query.scheduleId === undefined ? {} : { scheduleId: query.scheduleId }),
        ...(query.status === undefined ? {} : { statuses: query.status.split(',') as RunStatus[] }),
        limit: query.limit ?? 50,
      });
      return { runs: listed.map(shownRun) };
    },
  });

  const cancelRunRoute = defineRoute({
    method: 'POST',
    path: '/api/runs/:id/cancel',
    scope: 'yeoul:write',
    operationId: 'cancelRun',
    summary:
      'Cancel a run: a queued one never starts, a running one stops, a paused one is abandoned',
    request: { params: runParams },
    responses: { 202: { description: 'cancelled', schema: runCancelledSchema } },
    errors: [400, 401, 404, 409],
    handler: async (request, reply, input) => {
      const { id } = input.params();
      const run = await ownedRun(request, id);
      await cancelRun(context, run);
      return reply.code(202).send({ runId: id, status: 'cancelled' });
    },
  });

  return {
    tag: { name: 'runs', description: 'Runs: start in the background, follow, wait, list, cancel' },
    routes: [createRun, listRuns, getRun, streamRunEvents, cancelRunRoute],
  };
}

/** A run as the API shows it: the webhook's URL only (its headers are never shown). */
function shownRun(run: RunRecord): RunRecord {
  const { request: _request, stream: _stream, webhook, ...shown } = run;
  if (webhook === undefined) return shown;
  const url = typeof webhook === 'string' ? webhook : (webhook as { url?: unknown }).url;
  return { ...shown, webhook: { url } };
}

/** Opens an SSE response and hands `start` its writer. */
function openStream(
  reply: FastifyReply,
  requestId: string,
  start: (
    write: ReturnType<typeof sseWriter>['write'],
    close: () => void,
  ) => (() => void) | undefined,
): void {
  reply.hijack();
  reply.raw.writeHead(200, { ...sseHeaders, 'x-request-id': requestId });
  const writer = sseWriter(reply.raw);
  const stop = start(
    (entry) => writer.write(entry),
    () => writer.close(),
  );
  reply.raw.on('close', () => {
    stop?.();
    writer.close();
  });
}
