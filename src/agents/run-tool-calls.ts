import { createId } from '../core/index.ts';
import { answerFor, type InterruptRequest, type NodeContext } from '../graph/index.ts';
import type { ModelCallResult, ToolCall } from '../models/index.ts';
import { ToolExecutor } from '../tools/index.ts';
import { clientOutputOf, clientToolInterrupt, clientToolsOf } from './client-tools.ts';
import { guardedAnswer } from './guard/guarded-answer.ts';
import { isKorean } from './prompts.ts';
import { runGuardOf, runInstructionsOf, runOwnerOf } from './run-context.ts';
import type { AgentDependencies, ChatMessage } from './types.ts';

/** What marks the caller's instructions in the system prompt. */
export const callerInstructionsLabel = '[Instructions from the client application]';

/** Tool executions allowed per request; later calls get an error result the model sees. */
export const maxToolCallsPerRequest = 5;

/** A person's decision on a tool call whose permission is `ask`. */
export interface ToolDecision {
  approve: boolean;
  reason?: string;
}

/** What a tool-approval interrupt asks (its `value`). */
export interface ToolApprovalRequest {
  type: 'tool-approval';
  tool: string;
  args: unknown;
  toolCallId: string;
}

/** What one pass over a model turn's tool calls did. */
export interface ToolCallsOutcome {
  /** One tool message per call handled now: run, failed or denied. */
  results: ChatMessage[];
  /** The calls that ran (a failure counts), for the per-request limit and `toolsUsed`. */
  executed: ToolCall[];
  /** `ask` calls nobody has decided yet: the run pauses on these. */
  pending: InterruptRequest[];
}

/**
 * Runs a model turn's tool calls (no LLM) within the request's limit — `alreadyRun`
 * calls count against it — skipping calls that have a result already (`done`). A call
 * whose tool needs approval runs only once a person approved it (`context.resume`); a
 * denied one gets an error result naming the reason; an undecided one is returned in
 * `pending`, after every other call of the turn ran; so is a call of a tool the caller
 * brought (`clientTools`), until its output comes back as the answer. Streams `tool-call` /
 * `tool-result`.
 */
export async function runToolCalls(
  deps: AgentDependencies,
  calls: ToolCall[],
  alreadyRun: number,
  context: NodeContext,
  done: ReadonlySet<string> = new Set(),
): Promise<ToolCallsOutcome> {
  const approved = new Set<string>();
  const owner = runOwnerOf(context);
  const executor = new ToolExecutor(deps.tools, {
    ...(owner === undefined ? {} : { owner }),
    env: deps.toolEnvironment,
    maxCalls: Math.max(0, maxToolCallsPerRequest - alreadyRun),
    signal: context.signal,
    approve: async (call) => approved.has(call.id),
    ...(context.threadId === undefined ? {} : { sessionId: context.threadId.split('#')[0] }),
    // A guarded run's tools get restored values, and their results precede the tools stage.
    ...(runGuardOf(context) === undefined ? {} : { traceContent: false }),
  });
  const outcome: ToolCallsOutcome = { results: [], executed: [], pending: [] };
  const guard = runGuardOf(context);
  const clientTools = new Set(clientToolsOf(context).map((tool) => tool.name));
  for (const call of calls) {
    if (done.has(call.id)) continue;
    // A call of the caller's own tools runs at the caller's: the run waits for its output.
    const output = clientOutputOf(answerFor(context.resume, call.id));
    if (output !== undefined) {
      context.emit('tool-result', { id: call.id, name: call.name, result: output });
      outcome.results.push(toolMessage(call, output, false));
      continue;
    }
    if (clientTools.has(call.name)) {
      context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
      outcome.pending.push(clientToolInterrupt(call));
      continue;
    }
    // The tools stage sees the arguments first: a blocked call neither runs nor asks anyone.
    let args = call.args;
    if (guard !== undefined) {
      const checked = await guard.toolArgs(call.name, argsObject(call.args));
      if (checked.blocked) {
        const content = `Error: blocked by guardrail ${checked.blocked.name}: ${checked.blocked.reason}`;
        context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
        context.emit('tool-result', { id: call.id, name: call.name, result: content, error: true });
        outcome.results.push(toolMessage(call, content, true));
        continue;
      }
      args = checked.args;
    }
    if (deps.tools.permissionOf(call.name) === 'ask') {
      const decision = answerFor(context.resume, call.id) as ToolDecision | undefined;
      if (decision === undefined) {
        const request: ToolApprovalRequest = {
          type: 'tool-approval',
          tool: call.name,
          args: call.args,
          toolCallId: call.id,
        };
        outcome.pending.push({ key: call.id, value: request });
        continue;
      }
      if (!decision.approve) {
        const reason = decision.reason?.trim();
        const content = `Error: a person denied this call${reason ? `: ${reason}` : ''}`;
        context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
        context.emit('tool-result', { id: call.id, name: call.name, result: content, error: true });
        outcome.results.push(toolMessage(call, content, true));
        continue;
      }
      approved.add(call.id);
    }
    context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
    const result = await executor.execute(args === call.args ? call : { ...call, args });
    let content = result.content;
    let isError = result.isError;
    // …and the result, before the model does.
    if (guard !== undefined) {
      const checked = await guard.toolResult(call.name, argsObject(args), content);
      content = checked.blocked
        ? `Error: blocked by guardrail ${checked.blocked.name}: ${checked.blocked.reason}`
        : checked.text;
      isError = isError || checked.blocked !== undefined;
    }
    context.emit('tool-result', {
      id: call.id,
      name: call.name,
      result: content,
      ...(isError ? { error: true } : {}),
      durationMs: result.durationMs,
    });
    outcome.results.push(toolMessage(call, content, isError));
    outcome.executed.push(call);
  }
  return outcome;
}

/** A call's arguments as an object (they may come as JSON text, or not at all). */
function argsObject(args: unknown): Record<string, unknown> {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function toolMessage(call: ToolCall, content: string, isError: boolean): ChatMessage {
  return { role: 'tool', toolCallId: call.id, name: call.name, content, isError };
}

/** The last assistant turn with tool calls, and the ids of its calls that have results. */
export function openToolTurn(messages: ChatMessage[]): { calls: ToolCall[]; done: Set<string> } {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role === 'tool') index -= 1;
  const calls = messages[index]?.toolCalls ?? [];
  const done = new Set(
    messages
      .slice(index + 1)
      .flatMap((message) => (message.toolCallId ? [message.toolCallId] : [])),
  );
  return { calls, done };
}

/** An agent model call's result, with the id its answer is stored under when its text streamed. */
export type AgentModelAnswer = ModelCallResult & { messageId?: string };

/**
 * One agent model call: the usable tools bound, the request's temperature and output cap,
 * tokens streamed. A streamed answer gets its id before its first token, announced by an
 * `answer-start` event `{id}`: the `token` events after it are the text of the message stored
 * under that id (as the output stage leaves it: a blocked answer is stored as its refusal).
 */
export async function callAgentModel(
  deps: AgentDependencies,
  prompt: {
    system: string;
    messages: ChatMessage[];
    temperature: number | undefined;
    maxOutputTokens?: number | undefined;
  },
  context: NodeContext,
): Promise<AgentModelAnswer> {
  const messageId = wantsTokens(context) ? createId() : undefined;
  let announced = false;
  const send =
    messageId === undefined
      ? undefined
      : (text: string) => {
          if (!announced) {
            announced = true;
            context.emit('answer-start', { id: messageId });
          }
          context.emit('token', { text });
        };
  const question = prompt.messages.findLast((message) => message.role === 'user')?.content ?? '';
  const instructions = runInstructionsOf(context);
  // The caller's instructions follow Yeoul's prompt, marked as theirs, for this run only.
  const system =
    instructions === undefined
      ? prompt.system
      : `${prompt.system}\n\n${callerInstructionsLabel}\n${instructions}`;
  const result = await guardedAnswer(runGuardOf(context), isKorean(question), send, (onTextDelta) =>
    deps.model.call({
      system,
      messages: prompt.messages,
      tools: [...deps.tools.describe(deps.toolEnvironment), ...clientToolsOf(context)],
      ...(prompt.temperature === undefined ? {} : { temperature: prompt.temperature }),
      ...(prompt.maxOutputTokens === undefined ? {} : { maxOutputTokens: prompt.maxOutputTokens }),
      signal: context.signal,
      ...(onTextDelta === undefined ? {} : { onTextDelta }),
      // The span would hold the answer before the output guardrails ran.
      ...(runGuardOf(context) === undefined ? {} : { traceContent: false }),
    }),
  );
  return messageId === undefined ? result : { ...result, messageId };
}

/**
 * Whether anyone reads token events: runs say so through `context.streamTokens` (the
 * agent runner sets it for streaming requests); unsaid, tokens are streamed.
 */
export function wantsTokens(context: NodeContext): boolean {
  return (context.context as { streamTokens?: boolean } | undefined)?.streamTokens !== false;
}

/** The assistant message of a model call: its id when it has one, its text, and its tool calls when there are any. */
export function assistantMessage(result: AgentModelAnswer): ChatMessage {
  const message: ChatMessage = {
    ...(result.messageId === undefined ? {} : { id: result.messageId }),
    role: 'assistant',
    content: result.text,
  };
  if (result.toolCalls.length > 0) message.toolCalls = result.toolCalls;
  return message;
}
