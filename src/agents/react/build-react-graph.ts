import { isYeoulError } from '../../core/index.ts';
import { type CompileOptions, END, START, StateGraph } from '../../graph/index.ts';
import { ToolExecutor } from '../../tools/index.ts';
import { maxToolCallsPerRequest } from '../chat/tools-node.ts';
import { closeDanglingToolCalls } from '../close-tool-calls.ts';
import { defaultPersona, isKorean, modelFailureAnswer, tooComplexAnswer } from '../prompts.ts';
import type { AgentDependencies, AgentOptions, ChatMessage } from '../types.ts';
import { validateInput } from '../validate-input.ts';
import { type ReactState, reactState } from './react-state.ts';

const inputProblems = new Set(['empty_input', 'invalid_input', 'input_too_long']);

/** The input of one react run. */
export function reactRunInput(message: string, options: AgentOptions) {
  return {
    userMessage: message,
    toolExecutionRequests: [],
    currentStep: 'input' as const,
    error: null,
    usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
    toolsUsed: [],
    options,
    response: '',
  };
}

/**
 * The single agent of seeds 000/003: input → llm → (tool ↺ llm | response | error).
 * The iteration counter counts LLM calls of the run; past `maxIterations` the run goes
 * to the error node with the "request too complex" answer.
 */
export function buildReactGraph(deps: AgentDependencies, options: CompileOptions = {}) {
  const persona = deps.persona ?? defaultPersona;
  const korean = (state: ReactState) => isKorean(state.userMessage);
  const iterationsThisRun = (state: ReactState) => state.usage.llmCalls;
  return new StateGraph(reactState)
    .addNode('input', (state) => {
      const problem = validateInput(state.userMessage, deps.model.settings.maxInputTokens);
      if (problem) return { error: problem, currentStep: 'error' as const };
      return {
        messages: { role: 'user' as const, content: state.userMessage },
        currentStep: 'input' as const,
      };
    })
    .addNode('llm', async (state, context) => {
      try {
        const result = await deps.model.call({
          system: persona,
          messages: state.messages,
          tools: deps.tools.describe(deps.toolEnvironment),
          ...(state.options.temperature === undefined
            ? {}
            : { temperature: state.options.temperature }),
          signal: context.signal,
          onTextDelta: (text) => context.emit('token', { text }),
        });
        const message: ChatMessage = { role: 'assistant', content: result.text };
        if (result.toolCalls.length > 0) message.toolCalls = result.toolCalls;
        return {
          messages: message,
          toolExecutionRequests: result.toolCalls,
          currentStep: 'llm' as const,
          iterationCount: 1,
          usage: {
            llmCalls: state.usage.llmCalls + 1,
            inputTokens: state.usage.inputTokens + result.usage.inputTokens,
            outputTokens: state.usage.outputTokens + result.usage.outputTokens,
          },
        };
      } catch (error) {
        if (context.signal.aborted || !isYeoulError(error)) throw error;
        return {
          error: { code: error.code, message: error.message },
          currentStep: 'error' as const,
          usage: {
            ...state.usage,
            llmCalls: state.usage.llmCalls + ((error as { attempts?: number }).attempts ?? 1),
          },
        };
      }
    })
    .addNode('tool', async (state, context) => {
      const executor = new ToolExecutor(deps.tools, {
        env: deps.toolEnvironment,
        maxCalls: Math.max(0, maxToolCallsPerRequest - state.toolsUsed.length),
        signal: context.signal,
      });
      const results = [];
      for (const call of state.toolExecutionRequests) {
        context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
        const result = await executor.execute(call);
        context.emit('tool-result', {
          id: call.id,
          name: call.name,
          result: result.content,
          ...(result.isError ? { error: true } : {}),
        });
        results.push({
          id: call.id,
          name: call.name,
          content: result.content,
          isError: result.isError,
        });
      }
      return {
        toolExecutionResults: results,
        messages: results.map((result) => ({
          role: 'tool' as const,
          toolCallId: result.id,
          name: result.name,
          content: result.content,
          isError: result.isError,
        })),
        toolsUsed: [...state.toolsUsed, ...results.map((result) => result.name)],
        toolExecutionRequests: [],
        currentStep: 'tool' as const,
      };
    })
    .addNode('response', (state) => ({
      response: state.messages.at(-1)?.content ?? '',
      currentStep: 'response' as const,
    }))
    .addNode('error', (state) => {
      const code = state.error?.code ?? 'request_too_complex';
      const answer =
        code === 'request_too_complex'
          ? tooComplexAnswer(korean(state), state.options.maxIterations)
          : code === 'model_call_failed'
            ? modelFailureAnswer(korean(state))
            : korean(state)
              ? `요청을 처리할 수 없습니다: ${state.error?.message ?? code}`
              : `The request cannot be handled: ${state.error?.message ?? code}`;
      return {
        response: answer,
        messages: [
          ...closeDanglingToolCalls(
            state.messages,
            'the request reached its limit of LLM ⇄ tool rounds',
          ),
          // A refused input never entered the conversation, so neither does its answer.
          ...(inputProblems.has(code) ? [] : [{ role: 'assistant' as const, content: answer }]),
        ],
        toolExecutionRequests: [],
        error: state.error ?? {
          code,
          message: `no answer after ${state.options.maxIterations} LLM ⇄ tool rounds`,
        },
        currentStep: 'error' as const,
      };
    })
    .addEdge(START, 'input')
    .addConditionalEdges('input', (state) => (state.error ? 'error' : 'llm'), ['llm', 'error'])
    .addConditionalEdges(
      'llm',
      (state) => {
        if (state.error) return 'error';
        if (state.toolExecutionRequests.length > 0) {
          return iterationsThisRun(state) >= state.options.maxIterations ? 'error' : 'tool';
        }
        return 'response';
      },
      ['tool', 'response', 'error'],
    )
    .addEdge('tool', 'llm')
    .addEdge('response', END)
    .addEdge('error', END)
    .compile({ maxSteps: 15, ...options });
}
