import type { CompiledGraph, GraphEvent, RunResult, StateSchema } from '../graph/index.ts';
import type { InnerAgent, InnerAgentResult } from './ops/ops-state.ts';
import type { InnerRunSetup, PickedUpRun } from './registry/graph-entry.ts';
import { agentRunContext } from './run-context.ts';
import type { AgentOptions, AgentSource, AgentUsage, ChatMessage } from './types.ts';

/** The input of a new run of an agent graph on a prompt (after `history`, earlier turns). */
export type AgentRunInput = (
  prompt: string,
  options: AgentOptions,
  history: ChatMessage[],
) => Record<string, unknown>;

/** What the fields of a chat or react run's state the payload reads. */
interface AgentValues {
  messages: ChatMessage[];
  response?: string;
  context?: string;
  sources?: AgentSource[];
  usage: AgentUsage;
  toolsUsed: string[];
  error: { code: string; message: string } | null;
}

/**
 * A built-in agent on a session's thread, as the ops loop and the runner call it: a new
 * run on a prompt (a run its dead process left behind is closed first), or the paused run
 * resumed with answers. Tokens are streamed only when someone reads events. `history`
 * (turns the caller kept) goes before the first prompt only: a regenerated answer of the
 * ops loop runs on the thread that already holds it.
 */
export function innerAgent(
  graph: CompiledGraph<StateSchema, unknown>,
  runInput: AgentRunInput,
  setup: InnerRunSetup,
): InnerAgent {
  const { sessionId, options, streamTokens } = setup;
  let unseeded = setup.history;
  let promptId = setup.messageId;
  return async (input, run) => {
    const steps: string[] = [];
    const config = {
      threadId: sessionId,
      signal: run.signal,
      onEvent: forwardEvents(steps, run.emit),
      context: agentRunContext(streamTokens, setup.owner, undefined, setup.guard, setup.additions),
      closingStep: (values: Record<string, unknown>) => setup.guard?.closingStep({}, values),
      ...(setup.runId === undefined ? {} : { runId: setup.runId }),
      ...setup.runConfig,
    };
    const before = 'answers' in input ? [] : unseeded;
    const id = 'answers' in input ? undefined : promptId;
    if (!('answers' in input)) {
      unseeded = [];
      promptId = undefined;
    }
    const result =
      'answers' in input
        ? await graph.resumeRun(sessionId, { ...config, answers: input.answers })
        : await graph.run(runInput(input.prompt, withMessageId(options, id), before) as never, {
            ...config,
            onPendingRun: 'abandon',
          });
    return innerResult(result, steps);
  };
}

/** Runs again the step a dead process left running on a built-in agent's thread. */
export async function resumeInnerAgent(
  graph: CompiledGraph<StateSchema, unknown>,
  sessionId: string,
  run: PickedUpRun,
): Promise<InnerAgentResult> {
  const steps: string[] = [];
  const result = await graph.resumeRun(sessionId, {
    signal: run.signal,
    onEvent: forwardEvents(steps, run.emit),
    context: agentRunContext(run.streamTokens, run.owner, undefined, run.guard),
    closingStep: (values: Record<string, unknown>) => run.guard?.closingStep({}, values),
    ...run.runConfig,
  });
  return innerResult(result, steps);
}

/**
 * Turns graph events into the API's stream events, recording the nodes run in `steps`. A
 * `step` names the graph run and its super-step, so nodes that ran together can be told
 * apart from those of a graph run inside a node (the ops loop's agent).
 */
export function forwardEvents(steps: string[], emit: (name: string, data: unknown) => void) {
  let runId: string | undefined;
  const step = (node: string, phase: 'start' | 'end', superstep: number) =>
    emit('step', { node, phase, superstep, ...(runId ? { runId } : {}) });
  return (event: GraphEvent<StateSchema>) => {
    if (event.type === 'run-start') runId = event.runId;
    else if (event.type === 'node-start') {
      steps.push(event.node);
      step(event.node, 'start', event.step);
    } else if (event.type === 'node-end') step(event.node, 'end', event.step);
    else if (event.type === 'custom') emit(event.name, event.data);
  };
}

/** What a finished (or paused) chat or react run produced. */
export function innerResult(result: RunResult<StateSchema>, steps: string[]): InnerAgentResult {
  const values = result.values as unknown as AgentValues;
  const messages = values.messages;
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]?.role !== 'user') lastUser -= 1;
  const toolResults = messages
    .slice(lastUser + 1)
    .flatMap((message) => (message.role === 'tool' ? [message.content] : []));
  const last = messages.at(-1);
  const response =
    result.status === 'interrupted'
      ? ''
      : (values.response ?? (last?.role === 'assistant' ? last.content : ''));
  return {
    status: result.status,
    interrupts: result.interrupts,
    question: lastUser >= 0 ? (messages[lastUser]?.content ?? '') : '',
    response,
    toolResults,
    context: values.context ?? '',
    sources: values.sources ?? [],
    usage: values.usage,
    toolsUsed: values.toolsUsed,
    steps,
    error: values.error,
  };
}

/** The run's options with the id its user message takes, when the caller gave one. */
export function withMessageId(options: AgentOptions, id: string | undefined): AgentOptions {
  return id === undefined ? options : { ...options, messageId: id };
}
