import type { BaseEvent } from '@ag-ui/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { validateInput } from '../../agents/index.ts';
import { isYeoulError } from '../../core/index.ts';
import { AgUiEventStream } from '../ag-ui/ag-ui-events.ts';
import { type AgUiTurn, agUiTurnOf } from '../ag-ui/ag-ui-turn.ts';
import { parseRunAgentInput, runAgentInput } from '../ag-ui/run-agent-input.ts';
import { checkClientTools, sessionView } from '../ag-ui/session-view.ts';
import { defineRoute, eventStream, type RouteGroup } from '../http/define-route.ts';
import { errorResponse, HttpError } from '../http/http-error.ts';
import { sseHeaders, writeInTick } from '../http/sse.ts';
import { admitRun } from '../runs/admit-run.ts';
import { cancelPausedRuns } from '../runs/cancel-paused-runs.ts';
import { type AgentCall, arrivalOf, runAgentCall } from '../runs/run-request.ts';
import { firstMessageTitle } from '../runtime/first-message-title.ts';
import { requireChatGraph } from '../runtime/graph-names.ts';
import { answersStreamLive } from './answers-stream-live.ts';
import type { RouteContext } from './route-context.ts';

/** Run errors that mean a decision named an approval no longer waiting. */
const decidedCodes = new Set(['run_not_interrupted', 'interrupt_not_found']);

/**
 * AG-UI: POST /ag-ui/NAME takes a `RunAgentInput` for the chat graph NAME and streams the
 * run as AG-UI events. The thread is a session of the caller; approvals end a run as
 * interrupts that the next input's `resume` decides; the client's own tools pause the run
 * until their results come in the next input.
 */
export function agUiRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;

  const runAgUi = defineRoute({
    method: 'POST',
    path: '/ag-ui/:name',
    scope: 'yeoul:write',
    operationId: 'runAgUi',
    summary:
      'AG-UI: run the chat graph NAME on a RunAgentInput (threadId = a session of the caller); the AG-UI events as Server-Sent Events',
    request: { params: z.object({ name: z.string().max(64) }), body: runAgentInput },
    responses: {
      200: {
        description: 'text/event-stream: one `data: <AG-UI event>` per event',
        content: eventStream,
      },
    },
    errors: [400, 401, 404, 409, 413, 422, 429, 500, 503],
    handler: async (request, reply, input) => {
      const { name } = input.params();
      requireChatGraph(runtime, name);
      const { input: body, options } = parseRunAgentInput(request.body);
      if (options.graph !== undefined && options.graph !== name) {
        throw new HttpError({
          status: 422,
          code: 'unsupported_field',
          message: `not supported here: forwardedProps.yeoul.options.graph (the path names the graph: ${name})`,
          details: { fields: ['forwardedProps.yeoul.options.graph'] },
        });
      }
      checkClientTools(runtime, name, body.tools ?? []);
      const owner = context.ownerOf(request);
      const threadId = body.threadId;
      // Another owner's thread is refused before anything is read or made.
      if ((await runtime.sessions.ownerOf(threadId)) !== undefined) {
        await runtime.sessions.check(threadId, owner);
      }
      const view = await sessionView(runtime, threadId);
      const turn = agUiTurnOf(body, view);
      if (turn.message !== undefined) checkMessage(turn.message.text, runtime.model.settings);
      const { onBusy, onDisconnect, graph: _graph, ...runOptions } = options;
      const additions = {
        ...(turn.clientTools.length > 0 ? { clientTools: turn.clientTools } : {}),
        ...(turn.instructions === undefined ? {} : { instructions: turn.instructions }),
      };
      let call: AgentCall;
      let created = false;
      if (turn.message !== undefined) {
        const title = firstMessageTitle(runtime, name, turn.message.text);
        created = await runtime.sessions.claim(threadId, owner, title, name);
        if (turn.closesClientCalls) {
          await runtime.runner.abandon(threadId, 'a new message came instead of the result');
          await cancelPausedRuns(context, threadId, owner);
        }
        call = {
          sessionId: threadId,
          owner,
          message: turn.message.text,
          messageId: turn.message.id,
          ...(view.exists || turn.history.length === 0 ? {} : { history: turn.history }),
          options: { ...runOptions, graph: name },
          ...(onBusy === undefined ? {} : { onBusy }),
          ...additions,
        };
      } else {
        await runtime.sessions.check(threadId, owner);
        call = {
          sessionId: threadId,
          owner,
          resume: { decisions: turn.decisions, outputs: turn.outputs },
          ...additions,
        };
      }
      const seen = turn.closesClientCalls
        ? (await sessionView(runtime, threadId)).messages
        : view.messages;
      const admission = await admitRun(context, request, owner, created ? threadId : undefined);
      const controller = new AbortController();
      let pushed = false;
      let finished = false;
      const writer = openOnFirstWrite(request, reply, () => {
        if (!finished && onDisconnect !== 'continue') {
          controller.abort(new Error('the client went away'));
        }
      });
      const events = new AgUiEventStream({
        threadId,
        runId: body.runId,
        write: writer.write,
        messages: async () => (await sessionView(runtime, threadId)).messages,
        seen: seen.flatMap((message) => (message.id ? [message.id] : [])),
        startedBefore: turn.message === undefined ? view.waiting.map((w) => w.toolCallId) : [],
        answeredByClient: turn.answeredCalls,
        live: answersStreamLive(context, name),
      });
      try {
        const payload = await runAgentCall(context, call, {
          signal: controller.signal,
          streamTokens: true,
          arrivedAt: arrivalOf(reply),
          admission,
          source: 'ag-ui',
          onEvent: (entry) => {
            pushed = true;
            events.push(entry);
          },
          onAnswerStart: (messageId) => events.answerStart(messageId),
          cancelReason: () => (controller.signal.aborted ? { type: 'client_left' } : undefined),
        });
        const waiting =
          payload.status === 'interrupted' ? (await sessionView(runtime, threadId)).waiting : [];
        await events.finish(payload, waiting);
      } catch (error) {
        if (!pushed) throw (await decidedAlready(context, threadId, error, turn)) ?? error;
        request.log.warn({ err: error }, 'AG-UI run ended with an error');
        const { body: failure } = errorResponse(error);
        await events.fail(failure.error.code, failure.error.message);
      } finally {
        finished = true;
        writer.end();
      }
    },
  });

  return {
    tag: { name: 'ag-ui', description: 'AG-UI: runs of the chat graphs for AG-UI clients' },
    routes: [runAgUi],
  };
}

/** The SSE answer, its headers sent with the first event; `leave` is called when the client goes. */
function openOnFirstWrite(request: FastifyRequest, reply: FastifyReply, leave: () => void) {
  let open = false;
  return {
    write: (event: BaseEvent) => {
      if (!open) {
        open = true;
        reply.hijack();
        reply.raw.writeHead(200, { ...sseHeaders, 'x-request-id': request.id });
        reply.raw.on('close', leave);
      }
      writeInTick(reply.raw, `data: ${JSON.stringify(event)}\n\n`);
    },
    end: () => {
      if (open && !reply.raw.writableEnded) reply.raw.end();
    },
  };
}

/** 413 for a message over the model's input, 422 for an empty or invalid one. */
function checkMessage(message: string, settings: { maxInputTokens: number }): void {
  const problem = validateInput(message, settings.maxInputTokens);
  if (problem === undefined || problem === null) return;
  throw new HttpError({
    status: problem.code === 'input_too_long' ? 413 : 422,
    code: problem.code,
    message: `messages (the user message): ${problem.message}`,
  });
}

/**
 * 409 `already_decided` for a `resume` that names approvals this thread asked and that were
 * decided already (through any surface); undefined for other errors.
 */
async function decidedAlready(
  context: RouteContext,
  threadId: string,
  error: unknown,
  turn: AgUiTurn,
): Promise<HttpError | undefined> {
  if (!isYeoulError(error) || !decidedCodes.has(error.code)) return undefined;
  const named = turn.decisions.map((decision) => decision.id);
  if (named.length === 0) return undefined;
  const log = await context.runtime.checkpointer.read(threadId);
  const decided = new Set(
    log.entries.flatMap((entry) =>
      entry.kind === 'resume' ? Object.keys(entry.payload?.answers ?? {}) : [],
    ),
  );
  if (!named.some((id) => decided.has(id))) return undefined;
  return new HttpError({
    status: 409,
    code: 'already_decided',
    message: `${named.join(', ')}: already decided`,
  });
}
