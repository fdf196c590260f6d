import type { FastifyRequest } from 'fastify';
import type { GraphEntry } from '../../agents/index.ts';
import type { StateSchema, ThreadState } from '../../graph/index.ts';
import { checkGraphInput } from '../http/graph-run-schemas.ts';
import { HttpError } from '../http/http-error.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { admitRun } from '../runs/admit-run.ts';
import { applyOnBusy } from '../runs/apply-on-busy.ts';
import type { GraphCall } from '../runs/run-graph-call.ts';
import { invalidInput, unsupportedField } from './langgraph-fields.ts';
import { answersOfResume } from './langgraph-resume.ts';
import { type RunRequestBody, runLimitsOf, runMetadataOf } from './langgraph-run-body.ts';

/** What a run of a graph of the config file is prepared from. */
export interface GraphRunSetup {
  entry: GraphEntry;
  threadId: string;
  owner: string;
  runId: string;
  body: RunRequestBody;
  state: ThreadState<StateSchema> | undefined;
  /** Whether the thread's last run asked questions (then answered). */
  askedBefore: boolean;
}

/**
 * Prepares a run of a graph without a `messages` channel as `POST /api/graphs/:name/invoke`
 * takes it: `input` a state update checked against the graph's channels, or `command.resume`
 * answering its questions. What only the agents take (`context`, `config.configurable`,
 * `webhook`) and the strategies that stop another run (`interrupt`, `rollback`) are refused
 * by name; `reject` refuses while the thread is busy. Claims the thread and admits the request.
 */
export async function prepareGraphRun(
  context: RouteContext,
  request: FastifyRequest,
  setup: GraphRunSetup,
): Promise<GraphCall> {
  const { runtime } = context;
  const { entry, threadId, owner, runId, body } = setup;
  const refused = [
    ...(body.context === undefined ? [] : ['context']),
    ...(body.config?.configurable === undefined ? [] : ['config.configurable']),
    ...(body.webhook === undefined ? [] : ['webhook']),
    ...(body.multitask_strategy === 'interrupt' || body.multitask_strategy === 'rollback'
      ? ['multitask_strategy']
      : []),
  ];
  if (refused.length > 0) throw unsupportedField(refused);
  let created = false;
  let input: Record<string, unknown> | undefined;
  let answers: Record<string, unknown> | undefined;
  if (body.command !== undefined) {
    answers = answersOfResume(
      body.command.resume,
      setup.state?.interrupts ?? [],
      setup.askedBefore,
    );
    await runtime.sessions.check(threadId, owner);
  } else {
    if (typeof body.input !== 'object' || body.input === null || Array.isArray(body.input)) {
      throw invalidInput('input', 'a state update: {CHANNEL: value}');
    }
    input = body.input as Record<string, unknown>;
    try {
      checkGraphInput(entry.name, entry.graph.schema, input);
    } catch (error) {
      if (error instanceof HttpError) throw invalidInput('input', error.message);
      throw error;
    }
    if (body.multitask_strategy !== 'enqueue') {
      await applyOnBusy(context, { sessionId: threadId, owner, onBusy: 'reject' }, runId);
    }
    const title = JSON.stringify(input) === '{}' ? '' : JSON.stringify(input);
    created = await runtime.sessions.claim(threadId, owner, title, entry.name);
  }
  const admission = await admitRun(context, request, owner, created ? threadId : undefined);
  const metadata = runMetadataOf(body);
  const limits = runLimitsOf(body);
  return {
    name: entry.name,
    graph: entry.graph,
    threadId,
    owner,
    runId,
    admission,
    source: 'langgraph',
    ...(input === undefined ? {} : { input }),
    ...(answers === undefined ? {} : { answers }),
    ...(metadata === undefined ? {} : { metadata }),
    ...(limits === undefined ? {} : { runConfig: limits }),
  };
}
