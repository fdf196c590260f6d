import { defaultGraphName } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import {
  type EvalItem,
  finishEvalRun,
  parseEvalItem,
  selectScorers,
  UnknownScorerError,
} from '../../evals/index.ts';
import {
  evalRunBody,
  evalRunListSchema,
  evalRunSchema,
  evalRunStartedSchema,
  feedbackBody,
  feedbackSavedSchema,
} from '../../protocol/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { evalRunParams, sessionParams } from '../http/schemas.ts';
import { admitRun } from '../runs/admit-run.ts';
import { evalGraphNames, evalTargetOf, userScorersOf } from '../runtime/eval-target.ts';
import { notFound } from '../sessions/session-store.ts';
import type { RouteContext } from './route-context.ts';

const invalid = (problems: string[]) =>
  new HttpError({
    status: 400,
    code: 'invalid_request',
    message: problems.join('; '),
    details: problems,
  });

/**
 * GET /api/evals, GET /api/evals/:id, POST /api/evals (202: the run goes on in the
 * background), and POST /api/sessions/:id/feedback. Runs and their sessions are the
 * request's owner's; another owner's run is a 404.
 */
export function evalRoutes(context: RouteContext): RouteGroup {
  const { runtime } = context;
  /** Runs going on after their 202: stopped at shutdown and stored as failed, never left running. */
  const background = new Set<{ controller: AbortController; work: Promise<void> }>();
  const stopBackground = async () => {
    const running = [...background];
    for (const { controller } of running) {
      controller.abort(new Error('the server shut down before the run finished'));
    }
    await Promise.all(running.map(({ work }) => work));
  };

  const listEvalRuns = defineRoute({
    method: 'GET',
    path: '/api/evals',
    scope: 'yeoul:read',
    operationId: 'listEvalRuns',
    summary: 'The caller’s evaluation runs, newest first (at least the latest 100)',
    responses: { 200: { description: 'runs', schema: evalRunListSchema } },
    handler: async (request) => ({
      runs: await runtime.evals.list(context.ownerOf(request), 100),
    }),
  });

  const getEvalRun = defineRoute({
    method: 'GET',
    path: '/api/evals/:id',
    scope: 'yeoul:read',
    operationId: 'getEvalRun',
    summary: 'An evaluation run: summary, and each item with its scores and session',
    request: { params: evalRunParams },
    responses: { 200: { description: 'the run', schema: evalRunSchema } },
    errors: [401, 404],
    handler: async (request, _reply, input) => {
      const { id } = input.params();
      const run = await runtime.evals.get(id, context.ownerOf(request));
      if (run === undefined) {
        throw new HttpError({
          status: 404,
          code: 'not_found',
          message: `no evaluation run "${id}"`,
        });
      }
      return run;
    },
  });

  const startEvalRun = defineRoute({
    method: 'POST',
    path: '/api/evals',
    scope: 'yeoul:write',
    operationId: 'startEvalRun',
    summary: 'Run items through a chat graph and score them, in the background',
    request: { body: evalRunBody, emptyBody: {} },
    responses: { 202: { description: 'started', schema: evalRunStartedSchema } },
    errors: [400, 401, 413, 429],
    handler: async (request, reply, input) => {
      const body = input.body();
      const owner = context.ownerOf(request);
      const problems: string[] = [];
      const items: EvalItem[] = [];
      body.items.forEach((value, index) => {
        const parsed = parseEvalItem(value, `item-${index + 1}`);
        if (parsed.ok) items.push(parsed.item);
        else problems.push(...parsed.problems.map((problem) => `items.${index}.${problem}`));
      });
      const ids = new Set<string>();
      for (const item of items) {
        if (ids.has(item.id)) problems.push(`items: id "${item.id}" is used twice`);
        ids.add(item.id);
      }
      const graphs = evalGraphNames(runtime);
      for (const graph of new Set([body.graph, ...items.map((item) => item.graph)])) {
        if (graph !== undefined && !graphs.includes(graph)) {
          problems.push(`graph: "${graph}" is not a chat graph (${graphs.join(', ')})`);
        }
      }
      let scorers: ReturnType<typeof selectScorers> | undefined;
      try {
        scorers = selectScorers(body.scorers, userScorersOf(runtime));
      } catch (error) {
        if (!(error instanceof UnknownScorerError)) throw error;
        problems.push(`scorers: ${error.message}`);
      }
      if (problems.length > 0 || scorers === undefined) throw invalid(problems);
      // One run request; what its items' runs use is counted as each ends (evalTargetOf).
      const admission = await admitRun(context, request, owner);
      const run = {
        id: createId(),
        owner,
        name: body.name ?? `api ${new Date().toISOString()}`,
        graph: body.graph ?? defaultGraphName,
        createdAt: new Date().toISOString(),
      };
      await runtime.evals.create(run).catch(async (error: unknown) => {
        await admission.refund();
        throw error;
      });
      await admission.finish();
      // The run goes on after the response; its outcome (done or failed) is stored.
      const controller = new AbortController();
      const work = finishEvalRun(run, {
        items,
        target: evalTargetOf(runtime, owner),
        scorers,
        graph: run.graph,
        tools: { judge: runtime.model },
        store: runtime.evals,
        owner,
        name: run.name,
        signal: controller.signal,
      })
        .then(() => undefined)
        .catch((error: unknown) =>
          context.logger.warn({ err: error, evalRun: run.id }, 'an evaluation run failed'),
        )
        .finally(() => background.delete(entry));
      const entry = { controller, work };
      background.add(entry);
      return reply.code(202).send({ id: run.id });
    },
  });

  const rateSessionAnswer = defineRoute({
    method: 'POST',
    path: '/api/sessions/:id/feedback',
    scope: 'yeoul:write',
    operationId: 'rateSessionAnswer',
    summary: 'Rate the session’s last answer 👍 (1) or 👎 (-1), with an optional comment',
    request: { params: sessionParams, body: feedbackBody, emptyBody: {} },
    responses: { 201: { description: 'rated', schema: feedbackSavedSchema } },
    errors: [400, 401, 404, 409],
    handler: async (request, reply, input) => {
      const { id } = input.params();
      const body = input.body();
      const owner = context.ownerOf(request);
      await runtime.sessions.check(id, owner);
      const state = await runtime.runner.conversationState(id);
      if (state === undefined) throw notFound(id);
      const messages = state.values.messages;
      const answerAt = messages.findLastIndex(
        (message) => message.role === 'assistant' && message.content.trim() !== '',
      );
      const question = messages.slice(0, answerAt).findLast((message) => message.role === 'user');
      if (answerAt < 0 || question === undefined) {
        throw new HttpError({
          status: 409,
          code: 'no_answer',
          message: `session "${id}" has no answer to rate yet`,
        });
      }
      const feedback = {
        sessionId: id,
        owner,
        rating: body.rating,
        ...(body.comment?.trim() ? { comment: body.comment.trim() } : {}),
        input: question.content,
        answer: messages[answerAt]?.content ?? '',
        ratedAt: new Date().toISOString(),
      };
      await runtime.evals.rate(feedback);
      return reply
        .code(201)
        .send({ sessionId: id, rating: feedback.rating, ratedAt: feedback.ratedAt });
    },
  });

  return {
    tag: { name: 'evals', description: 'Evaluation runs and answer ratings' },
    setup: (scope) => scope.addHook('onClose', stopBackground),
    routes: [listEvalRuns, getEvalRun, startEvalRun, rateSessionAnswer],
  };
}
