import { createId } from '../core/index.ts';
import type { Checkpointer, GraphEvent, StateSchema } from '../graph/index.ts';
import { buildChatGraph } from './chat/build-chat-graph.ts';
import { chatRunInput } from './chat/chat-state.ts';
import { buildOpsGraph } from './ops/build-ops-graph.ts';
import type { Evaluation } from './ops/evaluation.ts';
import type { InnerAgent, InnerAgentResult } from './ops/ops-state.ts';
import { buildReactGraph, reactRunInput } from './react/build-react-graph.ts';
import type { AgentDependencies, AgentUsage, ChatMessage } from './types.ts';

/** The graphs a request may ask for. */
export type GraphName = 'chat' | 'react' | 'ops';

/** One request to an agent (the body of POST /api/agent/invoke). */
export interface AgentRequest {
  message: string;
  sessionId?: string;
  options?: { temperature?: number; maxIterations?: number; graph?: GraphName; evaluate?: boolean };
  signal?: AbortSignal;
  /** Stream events: `step` {node, phase}, `token`, `tool-call`, `tool-result`, `evaluation`. */
  onEvent?: (name: string, data: unknown) => void;
}

/** The invoke payload of ../shared/CONTRACT.md. */
export interface AgentResponse {
  response: string;
  sessionId: string;
  toolsUsed: string[];
  /** Seconds. */
  executionTime: number;
  status: 'published' | 'rejected' | 'error';
  error?: true;
  errorCode?: string;
  steps: string[];
  usage: AgentUsage;
  evaluation?: { score: number; verdict: string; checks: Evaluation['checks'] };
}

/**
 * Runs the agent graphs for requests: one thread per session in the checkpointer (so a
 * conversation survives a restart), the chat or react agent, optionally inside the
 * self-correcting ops loop, and the contract's payload out.
 * @example
 * const runner = createAgentRunner(deps, new SqliteCheckpointer({ path: 'data/threads.sqlite' }));
 * const payload = await runner.invoke({ message: '123 * 456 계산해줘' });
 */
export function createAgentRunner(deps: AgentDependencies, checkpointer: Checkpointer) {
  const chat = buildChatGraph(deps, { checkpointer });
  const react = buildReactGraph(deps, { checkpointer });
  const judge = deps.model.info.provider === 'offline' ? undefined : deps.model;

  const innerAgent = (
    name: 'chat' | 'react',
    sessionId: string,
    request: AgentRequest,
  ): InnerAgent => {
    const options = {
      maxIterations: request.options?.maxIterations ?? 5,
      ...pick(request.options?.temperature),
    };
    return async (prompt, run) => {
      const steps: string[] = [];
      const onEvent = forwardEvents(steps, run.emit);
      // Tokens are streamed only when the caller reads events (a non-streamed model call is cheaper).
      const config = {
        threadId: sessionId,
        signal: run.signal,
        onEvent,
        context: { streamTokens: request.onEvent !== undefined },
      };
      if (name === 'react') {
        const state = await react.invoke(reactRunInput(prompt, options), config);
        return innerResult(
          state.response,
          state.messages,
          '',
          state.usage,
          state.toolsUsed,
          steps,
          state.error,
        );
      }
      const state = await chat.invoke(chatRunInput(prompt, options), config);
      const last = state.messages.at(-1);
      return innerResult(
        last?.role === 'assistant' ? last.content : '',
        state.messages,
        state.context,
        state.usage,
        state.toolsUsed,
        steps,
        state.error,
      );
    };
  };

  return {
    chat,
    react,
    async invoke(request: AgentRequest): Promise<AgentResponse> {
      const started = performance.now();
      const sessionId = request.sessionId ?? createId();
      const graph = request.options?.graph ?? 'chat';
      const emit = request.onEvent ?? (() => undefined);
      const signal = request.signal ?? new AbortController().signal;
      const innerName = graph === 'react' ? 'react' : 'chat';
      const inner = innerAgent(innerName, sessionId, request);
      const seconds = () => Math.round(performance.now() - started) / 1000;
      if (graph !== 'ops' && !request.options?.evaluate) {
        const result = await inner(request.message, { signal, emit });
        return {
          response: result.response,
          sessionId,
          toolsUsed: result.toolsUsed,
          executionTime: seconds(),
          status: result.error ? 'error' : 'published',
          ...(result.error ? { error: true as const, errorCode: result.error.code } : {}),
          steps: result.steps,
          usage: result.usage,
        };
      }
      const ops = buildOpsGraph({ inner, ...(judge ? { judge } : {}) });
      const steps: string[] = [];
      const state = await ops.invoke(
        { prompt: request.message },
        {
          signal,
          onEvent: forwardEvents(steps, emit),
        },
      );
      return {
        response: state.finalResponse,
        sessionId,
        toolsUsed: state.toolsUsed,
        executionTime: seconds(),
        status: state.finalStatus === 'pending' ? 'error' : state.finalStatus,
        ...(state.error ? { error: true as const, errorCode: state.error.code } : {}),
        steps: [...steps.slice(0, 1), ...state.innerSteps, ...steps.slice(1)],
        usage: state.usage,
        ...(state.evaluation
          ? {
              evaluation: {
                score: state.evaluation.score,
                verdict: state.verdict ?? 'pass',
                checks: state.evaluation.checks,
              },
            }
          : {}),
      };
    },
  };
}

/** Turns graph events into the API's stream events, recording the nodes run in `steps`. */
function forwardEvents(steps: string[], emit: (name: string, data: unknown) => void) {
  return (event: GraphEvent<StateSchema>) => {
    if (event.type === 'node-start') {
      steps.push(event.node);
      emit('step', { node: event.node, phase: 'start' });
    } else if (event.type === 'node-end') emit('step', { node: event.node, phase: 'end' });
    else if (event.type === 'custom') emit(event.name, event.data);
  };
}

function pick(temperature: number | undefined): { temperature?: number } {
  return temperature === undefined ? {} : { temperature };
}

function innerResult(
  response: string,
  messages: ChatMessage[],
  context: string,
  usage: AgentUsage,
  toolsUsed: string[],
  steps: string[],
  error: { code: string; message: string } | null,
): InnerAgentResult {
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]?.role !== 'user') lastUser -= 1;
  const toolResults = messages
    .slice(lastUser + 1)
    .flatMap((message) => (message.role === 'tool' ? [message.content] : []));
  return { response, toolResults, context, usage, toolsUsed, steps, error };
}
