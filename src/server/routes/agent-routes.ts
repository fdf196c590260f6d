import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AgentRequest } from '../../agents/index.ts';
import { validateInput } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { errorResponse, HttpError } from '../http-error.ts';
import { invokeBody, parseWith } from '../schemas.ts';
import type { RouteContext } from './route-context.ts';

/** POST /api/agent/invoke and /api/agent/stream (Server-Sent Events). */
export function registerAgentRoutes(app: FastifyInstance, context: RouteContext): void {
  const prepare = async (body: unknown, owner: string) => {
    const parsed = parseWith(invokeBody, body);
    const problem = validateInput(parsed.message, context.runtime.model.settings.maxInputTokens);
    if (problem) {
      throw new HttpError({
        status: problem.code === 'input_too_long' ? 413 : 400,
        code: problem.code,
        message: problem.message,
      });
    }
    const sessionId = parsed.sessionId ?? createId();
    await context.sessions.claim(sessionId, owner);
    return { ...parsed, sessionId };
  };

  const count = (payload: {
    usage: { llmCalls: number; inputTokens: number; outputTokens: number };
    toolsUsed: string[];
    status: string;
  }) => {
    context.metrics.increment('yeoul_runs_total', { status: payload.status });
    context.metrics.increment('yeoul_llm_calls_total', {}, payload.usage.llmCalls);
    context.metrics.increment('yeoul_tokens_total', { kind: 'input' }, payload.usage.inputTokens);
    context.metrics.increment('yeoul_tokens_total', { kind: 'output' }, payload.usage.outputTokens);
    context.metrics.increment('yeoul_tool_calls_total', {}, payload.toolsUsed.length);
  };

  app.post('/api/agent/invoke', async (request, reply) => {
    const body = await prepare(request.body, context.ownerOf(request));
    const leave = context.sessions.enter(body.sessionId);
    const controller = new AbortController();
    // The response closing before it was written means the client left: stop the run.
    reply.raw.on('close', () => {
      if (!reply.raw.writableEnded) controller.abort(new Error('the client went away'));
    });
    try {
      const payload = await context.runtime.runner.invoke({
        ...(body as AgentRequest),
        signal: controller.signal,
      });
      count(payload);
      return payload;
    } finally {
      leave();
    }
  });

  app.post('/api/agent/stream', async (request, reply) => {
    const body = await prepare(request.body, context.ownerOf(request));
    const leave = context.sessions.enter(body.sessionId);
    const controller = new AbortController();
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.on('close', () => {
      if (!response.writableEnded) controller.abort(new Error('the client disconnected'));
    });
    const send = (event: string, data: unknown) => {
      if (!response.writableEnded)
        response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    try {
      const payload = await context.runtime.runner.invoke({
        ...(body as AgentRequest),
        signal: controller.signal,
        onEvent: (name, data) => {
          if (name === 'step' || name === 'token' || name === 'tool-call' || name === 'tool-result')
            send(name, data);
        },
      });
      count(payload);
      send('done', payload);
    } catch (error) {
      if (!controller.signal.aborted) {
        const { body: errorBody } = errorResponse(error);
        send('error', errorBody.error);
        request.log.error({ err: error }, 'stream failed');
      } else {
        context.metrics.increment('yeoul_runs_total', { status: 'cancelled' });
      }
    } finally {
      leave();
      endStream(reply);
    }
  });
}

function endStream(reply: FastifyReply): void {
  if (!reply.raw.writableEnded) reply.raw.end();
}
