import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AgentResponse, validateInput } from '../../agents/index.ts';
import { createId, isYeoulError } from '../../core/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { graphOfV1Model } from '../openai/chat-completion-request.ts';
import { openAiError } from '../openai/openai-error.ts';
import type { V1RunOptions, V1TurnRunner } from '../openai/v1-turn-runner.ts';
import {
  finishedResponse,
  nowSeconds,
  pendingResponse,
  type ResponseFrame,
  type ResponseObject,
} from '../responses/response-object.ts';
import {
  type ResponseBody,
  refuseUnsupported,
  responseBody,
} from '../responses/response-request.ts';
import {
  responseDeletedSchema,
  responseEventSchema,
  responseObjectSchema,
  responseParams,
} from '../responses/response-schemas.ts';
import { placeOfResponse, type ResponsePlace } from '../responses/response-session.ts';
import {
  ResponseStream,
  type SessionMessage,
  type SessionMessages,
} from '../responses/response-stream.ts';
import { type ResponseTurn, responseTurnOf } from '../responses/response-turn.ts';
import { admitRun } from '../runs/admit-run.ts';
import { arrivalOf, runAgentCall } from '../runs/run-request.ts';
import { chatGraphNames } from '../runtime/graph-names.ts';
import { answersStreamLive } from './answers-stream-live.ts';
import type { RouteContext } from './route-context.ts';

/** Run errors that mean an approval named again was decided already (the run went on since). */
const decidedCodes = new Set(['run_not_interrupted', 'interrupt_not_found']);

/**
 * OpenAI's Responses API under /v1: POST /v1/responses (plain, or streamed as OpenAI's
 * events), GET and DELETE /v1/responses/:id. Each response is a turn of a session of the
 * caller: a new one, `previous_response_id`'s (a fork when the session went on since), or
 * `conversation`'s; `store: false` keeps nothing. The caller's function tools and Yeoul's
 * approvals pause the run, answered by `function_call_output` and `mcp_approval_response`.
 */
export function responsesRoutes(context: RouteContext, run: V1TurnRunner): Route[] {
  const { runtime } = context;

  /** Runs the turn at its place: a new message, or outputs and decisions for the paused run. */
  const execute = async (
    request: FastifyRequest,
    body: ResponseBody,
    turn: ResponseTurn,
    place: ResponsePlace,
    options: V1RunOptions,
  ): Promise<{ payload: AgentResponse; sessionId: string | null }> => {
    const graph = graphOfV1Model(body.model, chatGraphNames(runtime));
    const owner = context.ownerOf(request);
    const additions = {
      ...(turn.clientTools.length > 0 ? { clientTools: turn.clientTools } : {}),
      ...(turn.instructions === undefined ? {} : { instructions: turn.instructions }),
    };
    if (turn.message !== undefined) {
      return run(
        request,
        {
          graph,
          message: turn.message,
          history: turn.history,
          ...(body.temperature == null ? {} : { temperature: body.temperature }),
          ...(body.max_output_tokens == null ? {} : { maxOutputTokens: body.max_output_tokens }),
          ...additions,
        },
        place.sessionId ?? undefined,
        { ...options, source: 'responses', keepPaused: false },
      );
    }
    const sessionId = place.sessionId as string;
    await runtime.sessions.check(sessionId, owner);
    const admission = await admitRun(context, request, owner);
    try {
      const resume = { decisions: turn.decisions, outputs: turn.outputs };
      const payload = await runAgentCall(
        context,
        { sessionId, owner, resume, ...additions },
        { ...options, admission, source: 'responses' },
      );
      return { payload, sessionId };
    } catch (error) {
      throw decidedAlready(error, turn, place) ?? error;
    }
  };

  /** Reads a session's messages as committed now. */
  const sessionMessages =
    (sessionId: string): SessionMessages =>
    async () => {
      const state = await (await runtime.runner.threadGraph(sessionId)).getState(sessionId);
      return (state?.values as { messages?: SessionMessage[] } | undefined)?.messages ?? [];
    };

  /** The response of a finished run, kept (unless nothing is) before the client has it. */
  const conclude = async (
    frame: ResponseFrame,
    outcome: { payload: AgentResponse; sessionId: string | null },
    owner: string,
    tell?: (final: ResponseObject) => Promise<ResponseObject>,
  ): Promise<ResponseObject> => {
    const { payload, sessionId } = outcome;
    let messageId = `msg_${createId()}`;
    let step = -1;
    if (sessionId !== null) {
      const state = await (await runtime.runner.threadGraph(sessionId)).getState(sessionId);
      const messages = (state?.values as { messages?: Array<{ id?: string; role: string }> })
        ?.messages;
      const last = messages?.at(-1);
      if (last?.role === 'assistant' && last.id !== undefined) messageId = last.id;
      step = (state?.seq ?? 0) - 1;
    }
    const finished = finishedResponse({ ...frame, sessionId }, payload, messageId);
    const told = tell ? await tell(finished) : finished;
    if (sessionId !== null) {
      await runtime.responses.save({
        id: frame.id,
        owner,
        sessionId,
        runId: payload.runId,
        step,
        createdAt: frame.createdAt,
        body: told as unknown as Record<string, unknown>,
      });
    }
    return told;
  };

  const createResponse = defineRoute({
    method: 'POST',
    path: '/responses',
    scope: 'yeoul:write',
    operationId: 'createResponse',
    summary:
      'OpenAI Responses API: a turn of a session (stream: true for the response.* Server-Sent Events, without [DONE])',
    request: { body: responseBody },
    responses: {
      200: {
        description: 'a Response, or (stream: true) its events',
        schema: responseObjectSchema,
        content: { 'text/event-stream': responseEventSchema },
      },
    },
    errors: [400, 401, 404, 409, 413, 429, 500, 503],
    handler: async (request, reply, input) => {
      refuseUnsupported(request.body);
      const body = input.body();
      const graph = graphOfV1Model(body.model, chatGraphNames(runtime));
      const turn = responseTurnOf(body);
      if (turn.message !== undefined) checkMessage(turn.message, runtime.model.settings);
      const owner = context.ownerOf(request);
      const place = await placeOfResponse(runtime, owner, body, turn);
      if (!place.fresh && turn.history.length > 0) {
        throw new HttpError({
          status: 400,
          code: 'invalid_request',
          message:
            'input: a response that continues a session takes one new user message (its earlier messages are the session’s)',
          details: { param: 'input' },
        });
      }
      const frame = frameOf(body, place);
      const controller = new AbortController();
      const leave = () => controller.abort(new Error('the client went away'));
      const common = { signal: controller.signal, arrivedAt: arrivalOf(reply) };
      if (!body.stream) {
        watchLeaving(reply, leave);
        const outcome = await execute(request, body, turn, place, {
          ...common,
          streamTokens: false,
        });
        return conclude(frame, outcome, owner);
      }
      const session = place.sessionId === null ? undefined : sessionMessages(place.sessionId);
      const known = (await session?.())?.flatMap((message) => message.id ?? []) ?? [];
      const stream = new ResponseStream(reply.raw, {
        ...(session === undefined ? {} : { session: { messages: session, known } }),
        live: answersStreamLive(context, graph),
      });
      await streamResponse(request, reply, stream, frame, leave, (open) =>
        execute(request, body, turn, place, {
          ...common,
          streamTokens: true,
          onEvent: (entry) => {
            open();
            stream.event(entry);
          },
          onAnswerStart: (messageId) => {
            open();
            stream.answerStart(messageId);
          },
        }).then(async (outcome) => {
          open();
          stream.end(await conclude(frame, outcome, owner, (final) => stream.settle(final)));
        }),
      );
    },
  });

  const getResponse = defineRoute({
    method: 'GET',
    path: '/responses/:id',
    scope: 'yeoul:read',
    operationId: 'getResponse',
    summary: 'A response as it was answered (404 when unknown, deleted or another owner’s)',
    request: { params: responseParams },
    responses: { 200: { description: 'the Response', schema: responseObjectSchema } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const stored = await ownedResponse(context, request, input.params().id);
      return stored.body;
    },
  });

  const deleteResponse = defineRoute({
    method: 'DELETE',
    path: '/responses/:id',
    scope: 'yeoul:write',
    operationId: 'deleteResponse',
    summary: 'Delete a response (its session stays)',
    request: { params: responseParams },
    responses: { 200: { description: 'deleted', schema: responseDeletedSchema } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const stored = await ownedResponse(context, request, input.params().id);
      await runtime.responses.delete(stored.id);
      return { id: stored.id, object: 'response.deleted' as const, deleted: true as const };
    },
  });

  return [createResponse, getResponse, deleteResponse];
}

/** The caller's stored response; 404 when unknown, deleted or another owner's. */
async function ownedResponse(context: RouteContext, request: FastifyRequest, id: string) {
  const stored = await context.runtime.responses.get(id);
  if (stored === undefined || stored.owner !== context.ownerOf(request)) {
    throw new HttpError({
      status: 404,
      code: 'not_found',
      message: `Response with id '${id}' not found.`,
    });
  }
  return stored;
}

/** What the response says of its request. */
function frameOf(body: ResponseBody, place: ResponsePlace): ResponseFrame {
  return {
    id: `resp_${createId().replaceAll('-', '')}`,
    createdAt: nowSeconds(),
    model: body.model,
    instructions: body.instructions ?? null,
    metadata: body.metadata ?? null,
    previousResponseId: body.previous_response_id ?? null,
    sessionId: place.sessionId,
    temperature: body.temperature ?? null,
    maxOutputTokens: body.max_output_tokens ?? null,
    tools: (body.tools ?? []).map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: tool.strict ?? null,
    })),
    toolChoice: body.tool_choice ?? 'auto',
    parallelToolCalls: body.parallel_tool_calls ?? true,
    truncation: body.truncation ?? 'disabled',
    user: body.user ?? undefined,
  };
}

/** 413 for a message over the model's input, 400 for an empty or invalid one. */
function checkMessage(message: string, settings: { maxInputTokens: number }): void {
  const problem = validateInput(message, settings.maxInputTokens);
  if (problem === undefined || problem === null) return;
  throw new HttpError({
    status: problem.code === 'input_too_long' ? 413 : 400,
    code: problem.code,
    message: `input (the last message): ${problem.message}`,
    details: { param: 'input' },
  });
}

/** A plain response's client leaving stops its run. */
function watchLeaving(reply: FastifyReply, leave: () => void): void {
  reply.raw.on('close', () => {
    if (!reply.raw.writableEnded) leave();
  });
}

/**
 * Streams a response: the headers go out with the run's first event, so a request refused
 * before its run starts (a pending approval, a decision already made) still gets its status.
 */
async function streamResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: ResponseStream,
  frame: ResponseFrame,
  leave: () => void,
  work: (open: () => void) => Promise<void>,
): Promise<void> {
  let finished = false;
  const pending = pendingResponse(frame);
  const open = () => {
    if (stream.isOpen) return;
    reply.hijack();
    stream.open(request.id, pending);
    // Closing a stream is how OpenAI clients stop a response: stop the run.
    reply.raw.on('close', () => {
      if (!finished) leave();
      stream.close();
    });
  };
  try {
    await work(open);
    finished = true;
  } catch (error) {
    finished = true;
    if (!stream.isOpen) throw error;
    request.log.warn({ err: error }, 'response stream ended with an error');
    const { body } = openAiError(error);
    await stream.fail(pending, {
      code: body.error.code ?? 'server_error',
      message: body.error.message,
    });
  }
}

/**
 * 409 `already_decided` for decisions on approvals that `place.previous` asked and that no
 * longer wait (decided through another response or surface); undefined for other errors.
 */
function decidedAlready(
  error: unknown,
  turn: ResponseTurn,
  place: ResponsePlace,
): HttpError | undefined {
  if (!isYeoulError(error) || !decidedCodes.has(error.code)) return undefined;
  const asked = new Set(
    ((place.previous?.body.output ?? []) as Array<{ type?: string; id?: string; call_id?: string }>)
      .flatMap((item) => [item.id, item.call_id])
      .filter((id): id is string => id !== undefined),
  );
  const named = [...turn.decisions, ...turn.outputs].map((entry) => entry.id);
  if (!named.some((id) => asked.has(id))) return undefined;
  return new HttpError({
    status: 409,
    code: 'already_decided',
    message: `${named.join(', ')}: already decided`,
  });
}
