import { type CompileOptions, END, START, StateGraph } from '../../graph/index.ts';
import type { ChatModel } from '../../models/index.ts';
import { isKorean, modelFailureAnswer } from '../prompts.ts';
import { addUsage } from '../usage.ts';
import { buildRetryPrompt, decideVerdict, defaultFeedback, finalizeAnswer } from './decide.ts';
import { evaluateAnswer } from './evaluation.ts';
import { type InnerAgent, opsState } from './ops-state.ts';

/** What the ops graph needs: the agent it checks, and a judge model (real models only). */
export interface OpsDependencies {
  inner: InnerAgent;
  judge?: ChatModel;
}

/**
 * The self-correcting workflow of seed 001: analyze (the chat or react agent, its events
 * streamed) → evaluate → decide → regenerate ↺ analyze, or finalize. Verdicts,
 * thresholds, statuses and the BLOCK prefix follow the seed; max attempts 2 and 15 node
 * executions by default.
 */
export function buildOpsGraph(deps: OpsDependencies, options: CompileOptions = {}) {
  return new StateGraph(opsState)
    .addNode('analyze', async (state, context) => {
      const prompt =
        state.attempt > 0 && state.feedback
          ? buildRetryPrompt(state.prompt, state.feedback)
          : state.prompt;
      const result = await deps.inner(prompt, { signal: context.signal, emit: context.emit });
      return {
        response: result.response,
        toolResults: result.toolResults,
        context: result.context,
        error: result.error,
        usage: addUsage(state.usage, result.usage, result.usage.llmCalls),
        toolsUsed: [...state.toolsUsed, ...result.toolsUsed],
        innerSteps: [...state.innerSteps, ...result.steps],
      };
    })
    .addNode('evaluate', async (state, context) => {
      const evaluation = await evaluateAnswer(
        {
          question: state.prompt,
          answer: state.response,
          toolResults: state.toolResults,
          context: state.context,
        },
        { ...(deps.judge ? { judge: deps.judge } : {}), signal: context.signal },
      );
      context.emit('evaluation', evaluation);
      return {
        evaluation,
        usage: deps.judge ? { ...state.usage, llmCalls: state.usage.llmCalls + 1 } : state.usage,
      };
    })
    .addNode('decide', (state) => ({
      verdict: decideVerdict(state.evaluation?.score ?? 0, state.attempt, state.maxAttempts),
    }))
    .addNode('regenerate', (state) => ({
      feedback: state.evaluation?.feedback ?? defaultFeedback,
      attempt: state.attempt + 1,
      response: '',
      toolResults: [],
      evaluation: null,
      verdict: null,
    }))
    .addNode('finalize', (state) => {
      if (state.error) {
        // The inner agent already phrased its failure ("request too complex"); otherwise say so.
        const answer = state.response || modelFailureAnswer(isKorean(state.prompt));
        return { finalResponse: answer, finalStatus: 'error' as const };
      }
      return finalizeAnswer(state.verdict ?? 'pass', state.response);
    })
    .addEdge(START, 'analyze')
    .addConditionalEdges('analyze', (state) => (state.error ? 'finalize' : 'evaluate'), [
      'evaluate',
      'finalize',
    ])
    .addEdge('evaluate', 'decide')
    .addConditionalEdges(
      'decide',
      (state) => (state.verdict === 'regenerate' ? 'regenerate' : 'finalize'),
      ['regenerate', 'finalize'],
    )
    .addEdge('regenerate', 'analyze')
    .addEdge('finalize', END)
    .compile({ maxSteps: 15, ...options });
}
