import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  newScheduleOf,
  type Schedule,
  scheduleBody,
  scheduleChangesBody,
  scheduleUpdateOf,
} from '../../schedules/index.ts';
import { parseWebhook } from '../../webhooks/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { invalidInput, parseLangGraph, refuseUnsupported } from '../langgraph/langgraph-fields.ts';
import { messageOfInput } from '../langgraph/langgraph-messages.ts';
import { ownedThread } from '../langgraph/langgraph-threads.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const cronParams = z.object({ cron_id: z.string().min(1).max(200) });
const createBody = z.object({
  assistant_id: z.string().min(1).max(64),
  schedule: z.string().min(1).max(200),
  input: z.unknown(),
  timezone: z.string().max(64).optional(),
  webhook: z.string().optional(),
  enabled: z.boolean().optional(),
  metadata: z.record(z.string().max(200), z.unknown()).optional(),
});
const createFields = {
  assistant_id: true,
  schedule: true,
  input: true,
  timezone: true,
  webhook: true,
  enabled: true,
  metadata: true,
} as const;
const changesBody = z.object({
  schedule: z.string().min(1).max(200).optional(),
  timezone: z.string().max(64).optional(),
  enabled: z.boolean().optional(),
});
const searchBody = z.object({
  assistant_id: z.string().optional(),
  thread_id: z.string().optional(),
  enabled: z.boolean().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
});

/** A schedule as LangGraph's Cron. */
function cronOf(schedule: Schedule): Record<string, unknown> {
  const iso = (instant: number | null) =>
    instant === null ? null : new Date(instant).toISOString();
  return {
    cron_id: schedule.id,
    assistant_id: schedule.graph,
    thread_id: schedule.sessionId,
    schedule: schedule.cron,
    timezone: schedule.timezone,
    payload: { input: { messages: [{ type: 'human', content: schedule.message }] } },
    enabled: schedule.enabled,
    next_run_date: schedule.enabled ? iso(schedule.nextRunAt) : null,
    end_time: null,
    user_id: null,
    metadata: schedule.metadata,
    created_at: iso(schedule.createdAt),
    updated_at: iso(schedule.updatedAt),
  };
}

/** Schedule problems as LangGraph's 422, naming its fields (`cron` is `schedule` here). */
function refusedSchedule(problems: string[]): HttpError {
  const named = problems.map((problem) => problem.replace(/^cron\b/, 'schedule'));
  return invalidInput(named.map((problem) => problem.split(':')[0]).join(', '), named.join('; '));
}

/**
 * LangGraph's crons: Yeoul's schedules. `POST /runs/crons` (a new thread per firing) and
 * `POST /threads/:thread_id/runs/crons` (every firing continues the thread) make a schedule
 * of a chat graph whose `onBusy` is `reject`; search, count, change (schedule, timezone,
 * enabled) and delete them. Each is listed by `GET /api/schedules` with the same id.
 */
export function langGraphCronRoutes(context: RouteContext): Route[] {
  const { runtime } = context;
  const store = runtime.schedules;

  const notFound = (id: string) =>
    new HttpError({ status: 404, code: 'not_found', message: `no cron "${id}"` });

  const create = async (request: FastifyRequest, threadId: string | null) => {
    refuseUnsupported(request.body, createFields);
    const body = parseLangGraph(createBody, request.body);
    const entry = runtime.graphs.get(body.assistant_id);
    if (entry === undefined) throw notFound(body.assistant_id);
    if (!entry.chat) throw invalidInput('assistant_id', 'a cron runs a chat graph');
    const message = messageOfInput(body.input, new Set()).text;
    const parsed = scheduleBody.safeParse({
      cron: body.schedule,
      message,
      graph: entry.name,
      onBusy: 'reject',
      ...(threadId === null ? {} : { sessionId: threadId }),
      ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
      ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
    });
    if (!parsed.success) {
      throw refusedSchedule(
        parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      );
    }
    let webhook: unknown;
    if (body.webhook !== undefined) {
      webhook = await parseWebhook(body.webhook, runtime.webhookSettings);
      if (typeof webhook === 'object' && webhook !== null && 'code' in webhook) {
        const refusal = webhook as { code: string; message: string };
        throw new HttpError({ status: 422, code: refusal.code, message: refusal.message });
      }
    }
    const owner = context.ownerOf(request);
    const schedule = await store.create({
      ...newScheduleOf(
        owner,
        { ...parsed.data, ...(webhook === undefined ? {} : { webhook }) },
        { now: Date.now(), defaultGraph: entry.name },
      ),
      ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
    });
    context.schedules.track(schedule);
    return cronOf(schedule);
  };

  const createCron = defineRoute({
    method: 'POST',
    path: '/runs/crons',
    scope: 'yeoul:write',
    operationId: 'langGraphCreateCron',
    summary: 'LangGraph: a cron (a schedule) whose firings each start a new thread',
    request: { body: createBody },
    responses: { 200: { description: 'the cron', schema: json } },
    errors: [401, 404, 422],
    handler: (request) => create(request, null),
  });

  const createThreadCron = defineRoute({
    method: 'POST',
    path: '/threads/:thread_id/runs/crons',
    scope: 'yeoul:write',
    operationId: 'langGraphCreateThreadCron',
    summary: 'LangGraph: a cron (a schedule) whose firings continue the thread',
    request: { params: z.object({ thread_id: z.string().min(1).max(200) }), body: createBody },
    responses: { 200: { description: 'the cron', schema: json } },
    errors: [401, 404, 422],
    handler: async (request) => {
      const { thread_id: threadId } = request.params as { thread_id: string };
      return create(request, await ownedThread(context, request, threadId));
    },
  });

  const updateCron = defineRoute({
    method: 'PATCH',
    path: '/runs/crons/:cron_id',
    scope: 'yeoul:write',
    operationId: 'langGraphUpdateCron',
    summary: 'LangGraph: change a cron’s schedule, timezone or whether it is enabled',
    request: { params: cronParams, body: changesBody },
    responses: { 200: { description: 'the cron', schema: json } },
    errors: [401, 404, 422],
    handler: async (request, _reply, input) => {
      const { cron_id: id } = input.params();
      const owner = context.ownerOf(request);
      const schedule = await store.get(id, owner);
      if (schedule === undefined) throw notFound(id);
      refuseUnsupported(request.body, { schedule: true, timezone: true, enabled: true });
      const body = parseLangGraph(changesBody, request.body);
      const changes = scheduleChangesBody.safeParse({
        ...(body.schedule === undefined ? {} : { cron: body.schedule }),
        ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      });
      if (!changes.success) {
        throw refusedSchedule(
          changes.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
        );
      }
      const made = scheduleUpdateOf(schedule, changes.data, Date.now());
      if ('problems' in made) throw refusedSchedule(made.problems);
      const updated = await store.update(id, owner, made.update);
      if (updated === undefined) throw notFound(id);
      context.schedules.track(updated);
      return cronOf(updated);
    },
  });

  const deleteCron = defineRoute({
    method: 'DELETE',
    path: '/runs/crons/:cron_id',
    scope: 'yeoul:write',
    operationId: 'langGraphDeleteCron',
    summary: 'LangGraph: delete a cron; no later slot fires',
    request: { params: cronParams },
    responses: { 204: { description: 'deleted' } },
    errors: [401, 404],
    handler: async (request, reply, input) => {
      const { cron_id: id } = input.params();
      if (!(await store.delete(id, context.ownerOf(request)))) throw notFound(id);
      context.schedules.forget(id);
      return reply.code(204).send();
    },
  });

  const search = async (request: FastifyRequest) => {
    refuseUnsupported(request.body, {
      assistant_id: true,
      thread_id: true,
      enabled: true,
      limit: true,
      offset: true,
    });
    const body = parseLangGraph(searchBody, request.body);
    const found = (await store.list(context.ownerOf(request))).filter(
      (schedule) =>
        (body.assistant_id === undefined || schedule.graph === body.assistant_id) &&
        (body.thread_id === undefined || schedule.sessionId === body.thread_id) &&
        (body.enabled === undefined || schedule.enabled === body.enabled),
    );
    return { body, found };
  };

  const searchCrons = defineRoute({
    method: 'POST',
    path: '/runs/crons/search',
    scope: 'yeoul:read',
    operationId: 'langGraphSearchCrons',
    summary: 'LangGraph: the caller’s crons by assistant, thread or enabled',
    request: { body: searchBody },
    responses: { 200: { description: 'the crons', schema: z.array(json) } },
    errors: [401, 422],
    handler: async (request) => {
      const { body, found } = await search(request);
      const offset = body.offset ?? 0;
      return found.slice(offset, offset + (body.limit ?? 10)).map(cronOf);
    },
  });

  const countCrons = defineRoute({
    method: 'POST',
    path: '/runs/crons/count',
    scope: 'yeoul:read',
    operationId: 'langGraphCountCrons',
    summary: 'LangGraph: how many crons a search finds',
    request: { body: searchBody },
    responses: { 200: { description: 'the count', schema: z.number() } },
    errors: [401, 422],
    handler: async (request) => (await search(request)).found.length,
  });

  return [createCron, createThreadCron, updateCron, deleteCron, searchCrons, countCrons];
}
