import { isYeoulError } from '../core/index.ts';
import {
  type CompiledGraph,
  InvalidRouteError,
  InvalidUpdateError,
  NodeFailedError,
  RecursionLimitError,
  type RunResult,
  type StateGraph,
  type StateSchema,
} from '../graph/index.ts';
import { chatRunInput, zeroUsage } from './chat/chat-state.ts';
import { forwardEvents, withMessageId } from './inner-agent.ts';
import type { InnerAgent, InnerAgentResult } from './ops/ops-state.ts';
import { isKorean } from './prompts.ts';
import type { InnerRunSetup, PickedUpRun } from './registry/graph-entry.ts';
import { agentRunContext } from './run-context.ts';
import type { AgentOptions, AgentSource, AgentUsage, ChatMessage } from './types.ts';

/** A graph of a config file, compiled with Yeoul's checkpointer. */
export interface UserGraphEntry {
  name: string;
  graph: CompiledGraph<StateSchema, unknown>;
  /** Whether its state has a `messages` channel: a chat graph, served like the built-in agents. */
  chat: boolean;
  /** The graph as declared, to compile again on another store (`/v1`'s stateless calls). */
  source: StateGraph<StateSchema, unknown>;
}

/** Whether a state schema makes a chat graph (a `messages` channel). */
export function isChatSchema(schema: StateSchema): boolean {
  return schema.messages?.kind === 'messages';
}

/**
 * The input of one run of a user chat graph: the user's message appended to `messages`,
 * and — for a state built on the chat agent's (`kit.chatState`) — the per-run fields the
 * built-in nodes read (options, counters, usage), so its nodes work as they do in `chat`.
 */
export function userChatInput(
  schema: StateSchema,
  message: string,
  options: AgentOptions,
  history: ChatMessage[] = [],
): Record<string, unknown> {
  const full = chatRunInput(message, options, history) as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(full)) {
    if (key !== 'agent' && schema[key] !== undefined) input[key] = full[key];
  }
  return input;
}

/**
 * A user chat graph on a session's thread, as the runner and the ops loop call an agent: a
 * new run on a prompt (a run its dead process left behind is closed first), or the paused
 * run resumed with answers. A node that fails ends the run with an error answer.
 */
export function userInnerAgent(entry: UserGraphEntry, setup: InnerRunSetup): InnerAgent {
  const { sessionId, options, streamTokens } = setup;
  let unseeded = setup.history;
  let promptId = setup.messageId;
  return async (input, run) => {
    const steps: string[] = [];
    const config = {
      threadId: sessionId,
      signal: run.signal,
      onEvent: forwardEvents(steps, run.emit),
      // Whose long-term memory the graph's nodes reach (`kit.memoryOf(context)`), and whose
      // workspace its file tools see.
      context: agentRunContext(streamTokens, setup.owner, options.memoryOwner, setup.guard),
      closingStep: (values: Record<string, unknown>) => setup.guard?.closingStep({}, values),
      ...(setup.runId === undefined ? {} : { runId: setup.runId }),
      ...setup.runConfig,
    };
    const question = 'prompt' in input ? input.prompt : '';
    try {
      if ('answers' in input) {
        const result = await entry.graph.resumeRun(sessionId, {
          ...config,
          answers: input.answers,
        });
        return userChatResult(result, steps);
      }
      const before = unseeded;
      const id = promptId;
      unseeded = [];
      promptId = undefined;
      const result = await entry.graph.run(
        userChatInput(entry.graph.schema, input.prompt, withMessageId(options, id), before),
        { ...config, onPendingRun: 'abandon' },
      );
      return userChatResult(result, steps);
    } catch (error) {
      if (!isGraphFailure(error)) throw error;
      return failedUserRun(entry.name, question, error, steps);
    }
  };
}

/** Runs again the step a dead process left running on a user chat graph's thread. */
export async function resumeUserGraph(
  entry: UserGraphEntry,
  sessionId: string,
  run: PickedUpRun,
): Promise<InnerAgentResult> {
  const steps: string[] = [];
  const result = await entry.graph.resumeRun(sessionId, {
    signal: run.signal,
    onEvent: forwardEvents(steps, run.emit),
    context: agentRunContext(run.streamTokens, run.owner, undefined, run.guard),
    closingStep: (values: Record<string, unknown>) => run.guard?.closingStep({}, values),
    ...run.runConfig,
  });
  return userChatResult(result, steps);
}

/** Errors of a graph's own making (a node that threw, a bad route or update, the step cap). */
function isGraphFailure(error: unknown): boolean {
  return (
    error instanceof NodeFailedError ||
    error instanceof RecursionLimitError ||
    error instanceof InvalidRouteError ||
    error instanceof InvalidUpdateError
  );
}

/** What a user chat graph's state holds that the payload reads, when it has such channels. */
interface UserChatValues {
  messages: ChatMessage[];
  toolsUsed?: unknown;
  sources?: unknown;
  usage?: unknown;
  context?: unknown;
  error?: unknown;
}

/**
 * A finished (or paused) run of a user chat graph as the runner reports it: the answer is
 * the content of the last `assistant` message; tools, sources and usage come from the
 * channels of those names when the state has them (else from the run's tool messages).
 */
export function userChatResult(result: RunResult<StateSchema>, steps: string[]): InnerAgentResult {
  const values = result.values as unknown as UserChatValues;
  const messages = Array.isArray(values.messages) ? values.messages : [];
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]?.role !== 'user') lastUser -= 1;
  const thisRun = messages.slice(lastUser + 1);
  const lastAssistant = [...thisRun].reverse().find((message) => message.role === 'assistant');
  const toolsUsed = Array.isArray(values.toolsUsed)
    ? (values.toolsUsed as string[])
    : thisRun.flatMap((message) =>
        message.role === 'tool' && typeof message.name === 'string' ? [message.name] : [],
      );
  const error = values.error as { code?: unknown; message?: unknown } | null | undefined;
  return {
    status: result.status,
    interrupts: result.interrupts,
    question: lastUser >= 0 ? (messages[lastUser]?.content ?? '') : '',
    response: result.status === 'interrupted' ? '' : (lastAssistant?.content ?? ''),
    toolResults: thisRun.flatMap((message) => (message.role === 'tool' ? [message.content] : [])),
    context: typeof values.context === 'string' ? values.context : '',
    sources: Array.isArray(values.sources) ? (values.sources as AgentSource[]) : [],
    usage: isUsage(values.usage) ? values.usage : zeroUsage,
    toolsUsed,
    steps,
    error:
      error && typeof error.code === 'string'
        ? { code: error.code, message: String(error.message ?? '') }
        : null,
  };
}

/** The result of a user graph run that failed (a node threw): an error answer, never a 500. */
export function failedUserRun(
  graph: string,
  question: string,
  error: unknown,
  steps: string[],
): InnerAgentResult {
  const message = error instanceof Error ? error.message : String(error);
  // A model that failed inside a node keeps its cause's code (model_unreachable, …).
  const cause = error instanceof Error ? error.cause : undefined;
  const code = isYeoulError(cause) && cause.code.startsWith('model_') ? cause.code : 'graph_failed';
  return {
    status: 'done',
    interrupts: [],
    question,
    response: isKorean(question)
      ? `죄송합니다. 그래프 "${graph}"를 실행하다 오류가 났습니다: ${message}`
      : `Sorry, the graph "${graph}" failed: ${message}`,
    toolResults: [],
    context: '',
    sources: [],
    usage: zeroUsage,
    toolsUsed: [],
    steps,
    error: { code, message },
  };
}

function isUsage(value: unknown): value is AgentUsage {
  const usage = value as Partial<AgentUsage> | null | undefined;
  return (
    typeof usage?.llmCalls === 'number' &&
    typeof usage.inputTokens === 'number' &&
    typeof usage.outputTokens === 'number'
  );
}
