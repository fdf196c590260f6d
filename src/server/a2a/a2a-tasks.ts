import type { FastifyReply, FastifyRequest } from 'fastify';
import { isYeoulError } from '../../core/index.ts';
import { errorResponse } from '../http/http-error.ts';
import { prepareAgentCall } from '../routes/prepare-agent-call.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { cancelRun } from '../runs/cancel-run.ts';
import { hasEnded } from '../runs/run-ledger.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import type { RunRecord, RunStatus } from '../runs/run-store.ts';
import { startBackgroundRun } from '../runs/start-background-run.ts';
import { streamRun } from '../runs/stream-run.ts';
import { A2aError, a2aCodes } from './a2a-error.ts';
import type { A2aTurn } from './a2a-request.ts';
import { type A2aTask, runStatusesOfState, stateOf, taskOf } from './a2a-task.ts';
import { type TaskEventStream, taskEvents } from './task-events.ts';

/** Run errors that mean the approvals named were decided already (the task went on since). */
const decidedCodes = new Set(['interrupt_answered', 'run_not_interrupted']);

/** ListTasks' filters and page. */
export interface TaskListQuery {
  contextId?: string;
  status?: string;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  includeArtifacts?: boolean;
  statusTimestampAfter?: string;
}

/**
 * A2A's operations over Yeoul's runs: a task is a run (`source: "a2a"`), its context the
 * caller's session. Every operation reads only the caller's runs: another owner's task is
 * -32001 as an unknown one is.
 */
export function a2aTasks(context: RouteContext) {
  const { runs } = context;

  /** The caller's run, or -32001. */
  const ownedTask = async (request: FastifyRequest, id: string): Promise<RunRecord> => {
    const run = await runs.store.get(id);
    if (run === undefined || run.owner !== context.ownerOf(request)) {
      throw new A2aError({ rpcCode: a2aCodes.taskNotFound, message: `no task "${id}"` });
    }
    return run;
  };

  /** The run a message asks for: decisions for a paused task, or new text in a context. */
  const prepare = async (request: FastifyRequest, graph: string, turn: A2aTurn) => {
    if (turn.taskId !== undefined) {
      const run = await ownedTask(request, turn.taskId);
      if (turn.contextId !== undefined && turn.contextId !== run.sessionId) {
        throw invalid(`message.contextId: task "${run.runId}" is in context "${run.sessionId}"`);
      }
      if (hasEnded(run.status)) {
        throw new A2aError({
          rpcCode: a2aCodes.unsupportedOperation,
          message: `task "${run.runId}" has ended (${stateOf(run)}): a new message starts a new task, without taskId`,
          ...(turn.decisions === undefined ? {} : { data: { code: 'already_decided' } }),
        });
      }
      if (turn.decisions === undefined) {
        throw invalid(
          'message.taskId: a task that waits for input takes a data part {decisions}; a new message starts a new task, without taskId',
        );
      }
      if (run.status !== 'interrupted') throw alreadyDecided(run.runId);
      const resume = { decisions: turn.decisions };
      return prepareAgentCall(context, request, { sessionId: run.sessionId, resume });
    }
    if (turn.decisions !== undefined) {
      throw invalid('message.taskId: decisions continue a paused task: send them with its id');
    }
    try {
      return await prepareAgentCall(context, request, {
        message: turn.text ?? '',
        ...(turn.contextId === undefined ? {} : { sessionId: turn.contextId }),
        options: { graph },
      });
    } catch (error) {
      if (turn.contextId !== undefined && errorResponse(error).status === 404) {
        throw new A2aError({
          rpcCode: a2aCodes.invalidParams,
          httpStatus: 404,
          message: `message.contextId: no context "${turn.contextId}" of yours`,
        });
      }
      throw error;
    }
  };

  /** SendMessage: the task once it ends or pauses, or at once (`returnImmediately`) as working. */
  const send = async (
    request: FastifyRequest,
    reply: FastifyReply,
    graph: string,
    turn: A2aTurn,
  ): Promise<A2aTask> => {
    const { call, admission } = await prepare(request, graph, turn);
    const arrivedAt = arrivalOf(reply);
    if (turn.returnImmediately) {
      const run = await startBackgroundRun(context, call, { source: 'a2a', admission, arrivedAt });
      if (run === undefined) throw new Error('a new run’s id was taken');
      const task = taskOf(run, turn.historyLength);
      return { ...task, status: { ...task.status, state: 'TASK_STATE_WORKING' } };
    }
    const payload = await runAgentCall(context, call, {
      streamTokens: false,
      source: 'a2a',
      admission,
      arrivedAt,
    }).catch((error: unknown) => {
      throw decidedAlready(error, turn) ?? error;
    });
    const run = await runs.store.get(payload.runId);
    if (run === undefined) throw new Error(`the run "${payload.runId}" was not recorded`);
    return taskOf(run, turn.historyLength);
  };

  /**
   * SendStreamingMessage: `{task}` with the run's first event (a refusal before it is an
   * error response), then the answer's chunks and the final or input-required status.
   * A client that leaves leaves the task going, to be subscribed to again.
   */
  const stream = async (
    request: FastifyRequest,
    reply: FastifyReply,
    graph: string,
    turn: A2aTurn,
    out: TaskEventStream,
  ): Promise<void> => {
    const { call, admission } = await prepare(request, graph, turn);
    let events: ReturnType<typeof taskEvents> | undefined;
    try {
      await runAgentCall(context, call, {
        streamTokens: true,
        source: 'a2a',
        admission,
        arrivedAt: arrivalOf(reply),
        onEvent: (entry) => {
          if (events === undefined) {
            const runId = entry.id.slice(0, entry.id.lastIndexOf(':'));
            events = taskEvents({ runId, sessionId: call.sessionId }, out.send.bind(out));
            reply.hijack();
            out.open(request.id);
            const message = call.message;
            const now = new Date().toISOString();
            const task = taskOf({
              runId,
              sessionId: call.sessionId,
              owner: '',
              status: 'running',
              source: 'a2a',
              graph,
              ...(message === undefined ? {} : { message }),
              createdAt: now,
              startedAt: now,
              endedAt: null,
              attempts: 1,
              instanceId: '',
            });
            out.send({ task }, undefined, false);
          }
          if (events.event(entry)) out.close();
        },
      });
    } catch (error) {
      if (!out.isOpen) throw decidedAlready(error, turn) ?? error;
      request.log.warn({ err: error }, 'an A2A stream ended with an error');
    } finally {
      if (out.isOpen) out.close();
    }
  };

  /**
   * SubscribeToTask: the task as it is, then its events (from its first, or after
   * `Last-Event-ID`) until it ends or pauses; an ended task is -32004.
   */
  const subscribe = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    out: TaskEventStream,
  ): Promise<void> => {
    const run = await ownedTask(request, id);
    if (hasEnded(run.status)) {
      throw new A2aError({
        rpcCode: a2aCodes.unsupportedOperation,
        message: `task "${id}" has ended (${stateOf(run)}): there is nothing to subscribe to`,
      });
    }
    const header = request.headers['last-event-id'];
    const lastEventId = typeof header === 'string' && header !== '' ? header : undefined;
    reply.hijack();
    out.open(request.id);
    out.send({ task: taskOf(run) }, undefined, run.status === 'interrupted');
    if (run.status === 'interrupted') return out.close();
    const events = taskEvents(run, out.send.bind(out), lastEventId !== undefined);
    const raw = reply.raw;
    const stop = streamRun(context, run, lastEventId, {
      write: (entry) => {
        if (events.event(entry)) out.close();
      },
      close: () => out.close(),
      ping: () => {
        if (!raw.writableEnded) raw.write(': ping\n\n');
      },
      closed: () => raw.destroyed || raw.writableEnded,
    });
    raw.on('close', stop);
  };

  /** GetTask. */
  const get = async (request: FastifyRequest, id: string, historyLength?: number) =>
    taskOf(await ownedTask(request, id), historyLength);

  /** CancelTask: no further model or tool call; an ended task is -32002. */
  const cancel = async (request: FastifyRequest, id: string): Promise<A2aTask> => {
    const run = await ownedTask(request, id);
    const notCancelable = () =>
      new A2aError({
        rpcCode: a2aCodes.taskNotCancelable,
        message: `task "${id}" has ended: it cannot be cancelled`,
      });
    if (hasEnded(run.status)) throw notCancelable();
    await cancelRun(context, run).catch((error: unknown) => {
      throw isYeoulError(error) && error.code === 'run_ended' ? notCancelable() : error;
    });
    return taskOf((await runs.settled(id, 10_000)) ?? run);
  };

  /** ListTasks: the caller's tasks, newest first, by context and state, a page at a time. */
  const list = async (request: FastifyRequest, query: TaskListQuery) => {
    const owner = context.ownerOf(request);
    if (query.contextId !== undefined) {
      const holder = await context.runtime.sessions.ownerOf(query.contextId);
      if (holder !== undefined && holder !== owner) {
        throw new A2aError({
          rpcCode: a2aCodes.invalidParams,
          httpStatus: 404,
          message: `contextId: no context "${query.contextId}" of yours`,
        });
      }
    }
    const given = query.status?.toUpperCase().replaceAll('-', '_');
    const status = given === 'TASK_STATE_UNSPECIFIED' ? undefined : given;
    const state =
      status === undefined || status.startsWith('TASK_STATE_') ? status : `TASK_STATE_${status}`;
    const runStatus: RunStatus | undefined =
      state === undefined ? undefined : runStatusesOfState[state];
    if (state !== undefined && runStatus === undefined)
      throw invalid(`status: no state "${query.status}"`);
    const offset = query.pageToken === undefined ? 0 : offsetOf(query.pageToken);
    const pageSize = query.pageSize ?? 50;
    const listed = await runs.store.list({
      owner,
      ...(query.contextId === undefined ? {} : { sessionId: query.contextId }),
      ...(runStatus === undefined ? {} : { statuses: [runStatus] }),
      limit: offset + pageSize + 1,
      withResults: true,
    });
    const after = query.statusTimestampAfter && Date.parse(query.statusTimestampAfter);
    const matching = listed.filter(
      (run) =>
        (state === undefined || stateOf(run) === state) &&
        (!after || Date.parse(run.endedAt ?? run.startedAt ?? run.createdAt) > after),
    );
    const page = matching.slice(offset, offset + pageSize);
    const more = listed.length > offset + pageSize;
    return {
      tasks: page.map((run) => taskOf(run, query.historyLength, query.includeArtifacts ?? true)),
      nextPageToken: more ? Buffer.from(String(offset + pageSize)).toString('base64url') : '',
      pageSize,
      totalSize: offset + page.length + (more ? 1 : 0),
    };
  };

  return { send, stream, subscribe, get, cancel, list };
}

/** The A2A operations (see `a2aTasks`). */
export type A2aTasks = ReturnType<typeof a2aTasks>;

function offsetOf(token: string): number {
  const offset = Number(Buffer.from(token, 'base64url').toString());
  if (!Number.isInteger(offset) || offset < 0)
    throw invalid('pageToken: not a token this server gave');
  return offset;
}

function invalid(message: string): A2aError {
  return new A2aError({ rpcCode: a2aCodes.invalidParams, message });
}

function alreadyDecided(taskId: string): A2aError {
  return new A2aError({
    rpcCode: a2aCodes.unsupportedOperation,
    message: `already decided: task "${taskId}" no longer waits for these decisions`,
    data: { code: 'already_decided' },
  });
}

/** A decision that lost a race to another one: the task no longer waits for it. */
function decidedAlready(error: unknown, turn: A2aTurn): A2aError | undefined {
  if (turn.decisions === undefined || turn.taskId === undefined) return undefined;
  if (!isYeoulError(error) || !decidedCodes.has(error.code)) return undefined;
  return alreadyDecided(turn.taskId);
}
