import type { FastifyRequest } from 'fastify';
import type { AgentRequestOptions, GraphEntry } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import type { Admission } from '../../identity/index.ts';
import { sessionIdSchema } from '../../protocol/index.ts';
import { parseWebhook } from '../../webhooks/index.ts';
import { HttpError } from '../http/http-error.ts';
import { prepareAgentCall } from '../routes/prepare-agent-call.ts';
import type { RouteContext } from '../routes/route-context.ts';
import type { GraphCall } from '../runs/run-graph-call.ts';
import type { AgentCall } from '../runs/run-request.ts';
import { invalidInput, parseLangGraph, refuseUnsupported } from './langgraph-fields.ts';
import { messageOfInput } from './langgraph-messages.ts';
import { decisionsOfResume } from './langgraph-resume.ts';
import {
  type RunRequestBody,
  runLimitsOf,
  runRequestBody,
  runRequestFields,
  type StreamChoice,
  streamChoiceOf,
  unsupportedModes,
} from './langgraph-run-body.ts';
import { approvalsOf, threadNotFound } from './langgraph-threads.ts';
import { prepareGraphRun } from './prepare-graph-run.ts';

/** A run request checked and admitted, ready to start: an agent's turn or a graph's run. */
export type PreparedRun = PreparedBase &
  (
    | {
        kind: 'agent';
        call: AgentCall;
        admission: Admission;
        /** The webhook as `POST /api/runs` stores it. */
        webhook?: unknown;
      }
    | { kind: 'graph'; graphCall: GraphCall }
  );

/** What every prepared run has. */
interface PreparedBase {
  threadId: string;
  body: RunRequestBody;
  /** What its stream sends: its modes, and subgraphs' events when asked. */
  stream: StreamChoice;
  /** A stateless run's thread, deleted after the run unless kept. */
  stateless: boolean;
  /** The run's id: the paused run's for decisions (they go on under it), else a new one. */
  runId: string;
  /** The thread's last step before the run: the run's steps come after it. */
  after: number;
}

/**
 * Checks a LangGraph run request before anything starts: fields Yeoul does not implement
 * (422 `unsupported_field`, each named), the body (422 `invalid_input`), the assistant (404),
 * the thread (another owner's or unknown → 404, unless `if_not_exists: "create"` makes it),
 * the checkpoint (the latest fork point only), the input (one new human message) or the
 * decisions of `command.resume`, and the webhook; then claims the session and admits the
 * request under the owner's limits, as `/api` does.
 */
export async function prepareLangGraphRun(
  context: RouteContext,
  request: FastifyRequest,
  given: {
    /** The thread of the path; none for a stateless run. */
    threadId: string | undefined;
    raw: unknown;
  },
): Promise<PreparedRun> {
  const { runtime } = context;
  const { raw } = given;
  const threadIdOfPath = given.threadId;
  refuseUnsupported(raw, runRequestFields, unsupportedModes(raw));
  const body = parseLangGraph(runRequestBody, raw);
  const entry = assistantOf(context, body.assistant_id);
  if ((body.input === undefined) === (body.command === undefined)) {
    throw invalidInput('input', 'give one of input or command');
  }
  if (body.command !== undefined && body.command.resume === undefined) {
    throw invalidInput('command.resume', 'the decisions to resume with');
  }
  const owner = context.ownerOf(request);
  const stateless = threadIdOfPath === undefined;
  const threadId = threadIdOfPath ?? createId();
  const holder = await runtime.sessions.ownerOf(threadId);
  if (holder !== undefined && holder !== owner) throw threadNotFound(threadId);
  if (holder === undefined && !stateless && body.if_not_exists !== 'create') {
    throw threadNotFound(threadId);
  }
  if (holder === undefined && !sessionIdSchema.safeParse(threadId).success) {
    throw invalidInput('thread_id', 'a thread id is 1–128 letters, digits and _ . : -');
  }
  if (stateless && body.command !== undefined) {
    throw invalidInput('command', 'a stateless run has no paused run to resume');
  }
  if (holder !== undefined && !entry.builtin)
    await adoptEmptyThread(context, owner, threadId, entry);
  const graph = await runtime.runner.threadGraph(threadId);
  const state = holder === undefined ? undefined : await graph.getState(threadId);
  // The thread's last step: its entries are numbered from 0, `seq` counts them.
  const latest = (state?.seq ?? 0) - 1;
  const asked = body.checkpoint_id ?? body.checkpoint?.checkpoint_id;
  if (asked !== undefined) {
    if (String(latest) !== asked) {
      throw invalidInput('checkpoint_id', 'only the thread’s latest checkpoint can be named');
    }
  }
  const runId = (body.command === undefined ? undefined : state?.runId) ?? createId();
  const base = { threadId, body, stream: streamChoiceOf(body), stateless, runId, after: latest };
  const askedBefore = async () =>
    (await graph.history(threadId)).some(
      (step) => step.runId === state?.runId && step.kind === 'interrupt',
    );
  if (!entry.chat) {
    const graphCall = await prepareGraphRun(context, request, {
      entry,
      threadId,
      owner,
      runId,
      body,
      state,
      askedBefore: body.command === undefined ? false : await askedBefore(),
    });
    return { ...base, kind: 'graph', graphCall };
  }
  let message: { text: string; id?: string } | undefined;
  let resume: AgentCall['resume'];
  if (body.command !== undefined) {
    const pending = await approvalsOf(context, threadId);
    resume = { decisions: decisionsOfResume(body.command.resume, pending, await askedBefore()) };
  } else {
    const messages = (state?.values as { messages?: Array<{ id?: string }> } | undefined)?.messages;
    const known = new Set((messages ?? []).flatMap((known) => (known.id ? [known.id] : [])));
    message = messageOfInput(body.input, known);
  }
  const webhook = await webhookOf(context, body.webhook);
  const limits = runLimitsOf(body);
  const options: AgentRequestOptions & { onBusy?: NonNullable<AgentCall['onBusy']> } = {
    graph: entry.name,
    ...body.context,
    ...body.config?.configurable,
    ...(stateless ? { longTermMemory: false } : {}),
    ...(body.command === undefined ? { onBusy: body.multitask_strategy ?? 'reject' } : {}),
  };
  const { call, admission } = await prepareAgentCall(context, request, {
    sessionId: threadId,
    options,
    ...(message === undefined ? {} : { message: message.text }),
    ...(message?.id === undefined ? {} : { messageId: message.id }),
    ...(limits === undefined ? {} : { runConfig: limits }),
    ...(resume === undefined ? {} : { resume }),
  });
  return {
    ...base,
    kind: 'agent',
    call,
    admission,
    ...(webhook === undefined ? {} : { webhook }),
  };
}

/** The assistant a run names (404 for an unknown one). */
function assistantOf(context: RouteContext, assistantId: string): GraphEntry {
  const entry = context.runtime.graphs.get(assistantId);
  if (entry === undefined) {
    throw new HttpError({
      status: 404,
      code: 'not_found',
      message: `no assistant "${assistantId}"`,
    });
  }
  return entry;
}

/** The webhook checked as `POST /api/runs` checks it (a refused URL → 422 with its code). */
async function webhookOf(context: RouteContext, given: string | undefined) {
  if (given === undefined) return undefined;
  const webhook = await parseWebhook(given, context.runtime.webhookSettings);
  if ('code' in webhook) {
    throw new HttpError({ status: 422, code: webhook.code, message: webhook.message });
  }
  return webhook;
}

/**
 * Lets the first run of a thread made empty by `POST /threads` choose a graph of the config
 * file: a thread with no run yet and not on a graph of its own is registered again on it.
 */
async function adoptEmptyThread(
  context: RouteContext,
  owner: string,
  threadId: string,
  entry: GraphEntry,
): Promise<void> {
  const { runtime } = context;
  if ((await runtime.sessions.graphOf(threadId)) !== undefined) return;
  if ((await context.runs.store.list({ owner, sessionId: threadId, limit: 1 })).length > 0) return;
  const current = await runtime.runner.threadGraph(threadId);
  const empty = (await current.history(threadId)).every(
    (step) => step.kind === 'input' && Object.keys(step.update ?? {}).length === 0,
  );
  if (!empty) return;
  // Its empty thread is made again on the graph, registered first (as every session is).
  await runtime.sessions.forget(threadId);
  await current.deleteThread(threadId);
  await runtime.sessions.claim(threadId, owner, '', entry.name);
  await entry.handoff.thread.updateState(threadId, {});
}
