import { isYeoulError } from '../../core/index.ts';
import { type CompileOptions, END, interrupt, START, StateGraph } from '../../graph/index.ts';
import { closeDanglingToolCalls, closeRunMessages } from '../close-tool-calls.ts';
import { defaultPersona, isKorean, modelFailureAnswer, tooComplexAnswer } from '../prompts.ts';
import { assistantMessage, callAgentModel, openToolTurn, runToolCalls } from '../run-tool-calls.ts';
import type { AgentDependencies, AgentOptions, ChatMessage } from '../types.ts';
import { addUsage } from '../usage.ts';
import { validateInput } from '../validate-input.ts';
import { type ReactState, reactState } from './react-state.ts';

const inputProblems = new Set(['empty_input', 'invalid_input', 'input_too_long']);

/**
 * The input of one react run (`history`: earlier turns the caller kept, before the message;
 * `options.messageId`: the id the message is stored with).
 */
export function reactRunInput(message: string, options: AgentOptions, history: ChatMessage[] = []) {
  return {
    ...(history.length > 0 ? { messages: history } : {}),
    agent: 'react' as const,
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
 * The single (ReAct) agent: input → llm → (tool ↺ llm | response | error).
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
        messages: {
          ...(state.options.messageId === undefined ? {} : { id: state.options.messageId }),
          role: 'user' as const,
          content: state.userMessage,
        },
        currentStep: 'input' as const,
      };
    })
    .addNode('llm', async (state, context) => {
      try {
        const prompt = {
          system: persona,
          messages: state.messages,
          temperature: state.options.temperature,
          maxOutputTokens: state.options.maxOutputTokens,
        };
        const result = await callAgentModel(deps, prompt, context);
        return {
          messages: assistantMessage(result),
          toolExecutionRequests: result.toolCalls,
          currentStep: 'llm' as const,
          iterationCount: 1,
          usage: addUsage(state.usage, result.usage),
        };
      } catch (error) {
        if (context.signal.aborted || !isYeoulError(error)) throw error;
        const attempts = (error as { attempts?: number }).attempts ?? 1;
        return {
          error: { code: error.code, message: error.message },
          currentStep: 'error' as const,
          usage: addUsage(state.usage, { inputTokens: 0, outputTokens: 0 }, attempts),
        };
      }
    })
    .addNode('tool', async (state, context) => {
      const { done } = openToolTurn(state.messages);
      const outcome = await runToolCalls(
        deps,
        state.toolExecutionRequests,
        state.toolsUsed.length,
        context,
        done,
      );
      const paused = outcome.pending.length > 0;
      const update = {
        toolExecutionResults: outcome.results.map((message) => ({
          id: message.toolCallId ?? '',
          name: message.name ?? '',
          content: message.content,
          isError: message.isError ?? false,
        })),
        messages: outcome.results,
        toolsUsed: [...state.toolsUsed, ...outcome.executed.map((call) => call.name)],
        // Kept while paused: the resumed node finds the calls still waiting here.
        ...(paused ? {} : { toolExecutionRequests: [] }),
        currentStep: 'tool' as const,
      };
      return paused ? interrupt(outcome.pending, update) : update;
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
          : code.startsWith('model_')
            ? modelFailureAnswer(korean(state), code)
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
    .compile({ name: 'react', maxSteps: 15, closeRun: closeRunMessages, ...options });
}
