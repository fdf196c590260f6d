import type { FastifyRequest } from 'fastify';
import { type AgentRequest, validateInput } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import type { Admission } from '../../identity/index.ts';
import { HttpError } from '../http/http-error.ts';
import { admitRun } from '../runs/admit-run.ts';
import type { OnBusy } from '../runs/apply-on-busy.ts';
import type { AgentCall } from '../runs/run-request.ts';
import { firstMessageTitle } from '../runtime/first-message-title.ts';
import { requireChatGraph } from '../runtime/graph-names.ts';
import type { RouteContext } from './route-context.ts';

/** An invoke body as parsed (`invokeBody`, `runBody`). */
type InvokeFields = Pick<AgentRequest, 'message' | 'messageId' | 'resume' | 'runConfig'> & {
  sessionId?: string;
  options?: AgentRequest['options'] & { onBusy?: OnBusy };
};

/**
 * Checks an invoke body and makes it a call: the message's size (413) and content (400), the
 * graph it names, the session claimed for the caller (a new message) or checked as theirs
 * (decisions), and the request admitted under the caller's limits (429).
 */
export async function prepareAgentCall(
  context: RouteContext,
  request: FastifyRequest,
  parsed: InvokeFields,
): Promise<{ call: AgentCall; admission: Admission }> {
  const { runtime } = context;
  if (parsed.message !== undefined) {
    const problem = validateInput(parsed.message, runtime.model.settings.maxInputTokens);
    if (problem) {
      throw new HttpError({
        status: problem.code === 'input_too_long' ? 413 : 400,
        code: problem.code,
        message: problem.message,
      });
    }
  }
  const graph = parsed.options?.graph;
  if (graph !== undefined) requireChatGraph(runtime, graph);
  const sessionId = parsed.sessionId ?? createId();
  const owner = context.ownerOf(request);
  let created = false;
  if (parsed.resume) await runtime.sessions.check(sessionId, owner);
  else {
    const title = firstMessageTitle(runtime, graph, parsed.message);
    created = await runtime.sessions.claim(sessionId, owner, title, graph);
  }
  const admission = await admitRun(context, request, owner, created ? sessionId : undefined);
  const { sessionId: _given, options, ...rest } = parsed;
  // `onBusy` says what the message does on a busy session, not how its run goes.
  const { onBusy, ...runOptions } = options ?? {};
  return {
    call: {
      ...rest,
      ...(options === undefined ? {} : { options: runOptions }),
      ...(onBusy === undefined ? {} : { onBusy }),
      sessionId,
      owner,
    },
    admission,
  };
}
