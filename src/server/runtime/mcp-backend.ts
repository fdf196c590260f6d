import { type AgentResponse, builtinGraphNames, validateInput } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import type { Admission } from '../../identity/index.ts';
import type { McpAnswer, McpBackend } from '../../mcp/index.ts';
import { HttpError } from '../http/http-error.ts';
import { approvalNotice } from '../runs/approval-notice.ts';
import type { AgentCall } from '../runs/run-request.ts';
import type { Runtime } from './create-runtime.ts';
import { firstMessageTitle } from './first-message-title.ts';
import { requireChatGraph } from './graph-names.ts';

/**
 * How a surface runs an `ask`: through the HTTP request path, or straight on the runner
 * (stdio), settling the request's admission when the run ends.
 */
export type RunMcpCall = (
  call: AgentCall,
  options: {
    signal: AbortSignal;
    onEvent: (name: string, data: unknown) => void;
    admission: Admission;
  },
) => Promise<AgentResponse>;

/**
 * How a surface counts an `ask` against the caller's limits (429 refusals become tool
 * errors); `createdSession` is the session the request has just registered, forgotten when
 * the request is refused.
 */
export type AdmitMcpCall = (createdSession: string | undefined) => Promise<Admission>;

/**
 * What Yeoul's MCP server serves from, for one caller (`owner`: as the HTTP layer names
 * it, or anonymous): `ask` checks the message as `/api` does, claims the session (a new
 * one when none is named), counts the request against the owner's limits and runs the
 * agent; a paused run's answer says what waits for approval and how to decide. A caller
 * without `yeoul:write` (`canRun: false`) gets a tool error naming `insufficient_scope` from
 * `ask`, and nothing runs. `search_knowledge` searches the knowledge base.
 * @example
 * const backend = createMcpBackend(runtime, {
 *   owner: anonymousOwner,
 *   admit: () => runtime.usage.admit(anonymousOwner, { exempt: true }),
 *   run: (call, { admission, ...options }) =>
 *     admission.run(() => runtime.runner.invoke({ ...call, ...options, streamTokens: true })),
 * });
 */
export function createMcpBackend(
  runtime: Runtime,
  options: {
    owner: string;
    version: string;
    admit: AdmitMcpCall;
    run: RunMcpCall;
    canRun?: boolean;
  },
): McpBackend {
  return {
    version: options.version,
    builtinGraphs: builtinGraphNames,
    async ask(request, { signal, onEvent }): Promise<McpAnswer> {
      if (options.canRun === false) {
        throw new HttpError({
          status: 403,
          code: 'insufficient_scope',
          message: 'insufficient_scope: ask needs yeoul:write, which these credentials do not hold',
        });
      }
      const problem = validateInput(request.message, runtime.model.settings.maxInputTokens);
      if (problem) {
        throw new HttpError({
          status: 400,
          code: problem.code,
          message: `message: ${problem.message}`,
        });
      }
      if (request.graph !== undefined) requireChatGraph(runtime, request.graph);
      const sessionId = request.sessionId ?? createId();
      const created = await runtime.sessions.claim(
        sessionId,
        options.owner,
        firstMessageTitle(runtime, request.graph, request.message),
        request.graph,
      );
      const admission = await options.admit(created ? sessionId : undefined);
      const payload = await options.run(
        {
          sessionId,
          message: request.message,
          owner: options.owner,
          ...(request.graph ? { options: { graph: request.graph } } : {}),
        },
        { signal, onEvent, admission },
      );
      const interrupts = payload.interrupts ?? [];
      return {
        response:
          payload.status === 'interrupted'
            ? `${payload.response}\n\n${approvalNotice(payload, sessionId)}`
            : payload.response,
        sessionId,
        status: payload.status,
        toolsUsed: payload.toolsUsed,
        ...(payload.errorCode ? { errorCode: payload.errorCode } : {}),
        ...(interrupts.length > 0
          ? { interrupts: interrupts.map(({ id, tool, args }) => ({ id, tool, args })) }
          : {}),
        ...(payload.sources?.length ? { sources: payload.sources } : {}),
        ...(payload.guardrail ? { guardrail: payload.guardrail } : {}),
      };
    },
    searchKnowledge: (query, k) => runtime.knowledge.search(query, k === undefined ? {} : { k }),
  };
}
