import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { defaultGraphName } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { sessionIdSchema } from '../../protocol/index.ts';
import {
  newScheduleOf,
  type Schedule,
  scheduleBody,
  scheduleChangesBody,
  scheduleUpdateOf,
  scheduleView,
} from '../../schedules/index.ts';
import { parseWebhook } from '../../webhooks/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { admitRun } from '../runs/admit-run.ts';
import { startScheduleRun } from '../runs/start-schedule-run.ts';
import { requireChatGraph } from '../runtime/graph-names.ts';
import { notFound } from '../sessions/session-store.ts';
import type { RouteContext } from './route-context.ts';

const scheduleParams = z.strictObject({ id: sessionIdSchema.describe('the schedule id') });

/** A schedule as the API shows it. */
const scheduleSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  cron: z.string(),
  timezone: z.string(),
  message: z.string(),
  graph: z.string(),
  sessionId: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  onBusy: z.enum(['enqueue', 'reject', 'interrupt', 'rollback']),
  webhook: z.object({ url: z.string() }).nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastRunId: z.string().nullable(),
});

const scheduleRunSchema = z.object({
  runId: z.string(),
  sessionId: z.string(),
  status: z.string(),
});

/**
 * Schedules: runs started at each slot of a cron expression, for their owner. Another
 * owner's or an unknown schedule is 404 `schedule_not_found`. Changes made here are followed
 * by this instance's runner at once.
 */
export function scheduleRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;
  const store = runtime.schedules;

  const notFoundError = (id: string) =>
    new HttpError({ status: 404, code: 'schedule_not_found', message: `no schedule "${id}"` });

  /** The caller's schedule, or 404 as for an unknown one. */
  const ownedSchedule = async (request: FastifyRequest, id: string): Promise<Schedule> => {
    const schedule = await store.get(id, context.ownerOf(request));
    if (schedule === undefined) throw notFoundError(id);
    return schedule;
  };

  /** Checks what a schedule names: its graph a chat graph, its session not another owner's. */
  const checkNames = async (
    owner: string,
    fields: { graph?: string | undefined; sessionId?: string | null | undefined },
  ) => {
    if (fields.graph !== undefined) requireChatGraph(runtime, fields.graph);
    if (typeof fields.sessionId === 'string') {
      const holder = await runtime.sessions.ownerOf(fields.sessionId);
      if (holder !== undefined && holder !== owner) throw notFound(fields.sessionId);
    }
  };

  /**
   * A schedule's webhook as `POST /api/runs` checks one (URL, headers, the secret, the host
   * rule); a refusal is a 400 that changes nothing. `null` (PATCH: remove it) stays null.
   */
  const checkedWebhook = async <Fields extends { webhook?: unknown }>(
    fields: Fields,
  ): Promise<Fields> => {
    if (fields.webhook === undefined || fields.webhook === null) return fields;
    const webhook = await parseWebhook(fields.webhook, runtime.webhookSettings);
    if ('code' in webhook) {
      throw new HttpError({ status: 400, code: webhook.code, message: webhook.message });
    }
    return { ...fields, webhook };
  };

  const createSchedule = defineRoute({
    method: 'POST',
    path: '/api/schedules',
    scope: 'yeoul:write',
    operationId: 'createSchedule',
    summary: 'Make a schedule: a run at each slot of a cron expression (5 or 6 fields)',
    request: { body: scheduleBody },
    responses: { 201: { description: 'the schedule', schema: scheduleSchema } },
    errors: [400, 401, 404],
    handler: async (request, reply, input) => {
      const owner = context.ownerOf(request);
      const body = await checkedWebhook(input.body());
      await checkNames(owner, body);
      const schedule = await store.create(
        newScheduleOf(owner, body, { now: Date.now(), defaultGraph: defaultGraphName }),
      );
      context.schedules.track(schedule);
      return reply
        .code(201)
        .header('location', `/api/schedules/${schedule.id}`)
        .send(scheduleView(schedule));
    },
  });

  const listSchedules = defineRoute({
    method: 'GET',
    path: '/api/schedules',
    scope: 'yeoul:read',
    operationId: 'listSchedules',
    summary: 'The caller’s schedules, newest first',
    responses: {
      200: {
        description: 'the schedules',
        schema: z.object({ schedules: z.array(scheduleSchema) }),
      },
    },
    errors: [401],
    handler: async (request) => ({
      schedules: (await store.list(context.ownerOf(request))).map(scheduleView),
    }),
  });

  const getSchedule = defineRoute({
    method: 'GET',
    path: '/api/schedules/:id',
    scope: 'yeoul:read',
    operationId: 'getSchedule',
    summary: 'A schedule, with its next and last run',
    request: { params: scheduleParams },
    responses: { 200: { description: 'the schedule', schema: scheduleSchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) =>
      scheduleView(await ownedSchedule(request, input.params().id)),
  });

  const updateSchedule = defineRoute({
    method: 'PATCH',
    path: '/api/schedules/:id',
    scope: 'yeoul:write',
    operationId: 'updateSchedule',
    summary: 'Change a schedule (any field of the POST; `webhook: null` removes it)',
    request: { params: scheduleParams, body: scheduleChangesBody },
    responses: { 200: { description: 'the schedule', schema: scheduleSchema } },
    errors: [400, 401, 404],
    handler: async (request, _reply, input) => {
      const { id } = input.params();
      const owner = context.ownerOf(request);
      const schedule = await ownedSchedule(request, id);
      const changes = await checkedWebhook(input.body());
      await checkNames(owner, changes);
      const made = scheduleUpdateOf(schedule, changes, Date.now());
      if ('problems' in made) {
        throw new HttpError({
          status: 400,
          code: 'invalid_request',
          message: made.problems.join('; '),
        });
      }
      const updated = await store.update(id, owner, made.update);
      if (updated === undefined) throw notFoundError(id);
      context.schedules.track(updated);
      return scheduleView(updated);
    },
  });

  const deleteSchedule = defineRoute({
    method: 'DELETE',
    path: '/api/schedules/:id',
    scope: 'yeoul:write',
    operationId: 'deleteSchedule',
    summary: 'Delete a schedule: no later slot fires; its runs stay listed',
    request: { params: scheduleParams },
    responses: { 204: { description: 'deleted' } },
    errors: [400, 401, 404],
    handler: async (request, reply, input) => {
      const { id } = input.params();
      if (!(await store.delete(id, context.ownerOf(request)))) throw notFoundError(id);
      context.schedules.forget(id);
      return reply.code(204).send();
    },
  });

  const runSchedule = defineRoute({
    method: 'POST',
    path: '/api/schedules/:id/run',
    scope: 'yeoul:write',
    operationId: 'runSchedule',
    summary: 'Start one run of a schedule now (enabled or not), `scheduledFor` null',
    request: { params: scheduleParams },
    responses: { 202: { description: 'the run, started', schema: scheduleRunSchema } },
    errors: [400, 401, 404, 409, 429],
    handler: async (request, reply, input) => {
      const schedule = await ownedSchedule(request, input.params().id);
      const runId = createId();
      // A run request of the caller: over a limit it is refused (429), nothing started.
      const admission = await admitRun(context, request, schedule.owner);
      const slot = { runId, scheduledFor: null, admission };
      const run = await startScheduleRun(context, schedule, slot);
      if (run === undefined) throw new Error('a new run’s id was taken');
      await store.recordFiring(schedule, { runId, firedAt: Date.now() });
      const { sessionId, status } = run;
      return reply
        .code(202)
        .header('location', `/api/runs/${runId}`)
        .send({ runId, sessionId, status });
    },
  });

  return {
    tag: {
      name: 'schedules',
      description: 'Schedules: runs started at the slots of a cron expression',
    },
    routes: [
      createSchedule,
      listSchedules,
      getSchedule,
      updateSchedule,
      deleteSchedule,
      runSchedule,
    ],
  };
}
