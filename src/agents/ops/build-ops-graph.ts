import { isYeoulError } from '../../core/index.ts';
import {
  type CompileOptions,
  END,
  interrupt,
  type NodeContext,
  START,
  StateGraph,
} from '../../graph/index.ts';
import type { ChatModel } from '../../models/index.ts';
import { isKorean, modelFailureAnswer } from '../prompts.ts';
import { addUsage } from '../usage.ts';
import { buildRetryPrompt, decideVerdict, defaultFeedback, finalizeAnswer } from './decide.ts';
import { evaluateAnswer } from './evaluation.ts';
import { type InnerAgent, type OpsState, opsState } from './ops-state.ts';

/** What the ops graph needs: a judge model (real models only). */
export interface OpsDependencies {
  judge?: ChatModel;
}

/** What every ops run is given as `context`: the agent it checks. */
export interface OpsRunContext {
  inner: InnerAgent;
}

/**
 * The self-correcting ops workflow: analyze (the chat or react agent, its events
 * streamed) → evaluate → decide → regenerate ↺ analyze, or finalize (also straight from
 * analyze or evaluate when the agent or the judge failed: status error). The verdict is
 * pass at a score ≥ 0.7, block below 0.3 (the answer shown with a warning prefix), otherwise
 * regenerate with the evaluation's feedback — pass on the last attempt; max attempts 2 and
 * 15 node executions by default. The inner agent comes with each run (`context.inner`); when it
 * pauses for an approval, the ops run pauses on the same questions (same ids) and,
 * resumed, hands the answers back to it.
 */
export function buildOpsGraph(deps: OpsDependencies = {}, options: CompileOptions = {}) {
  return new StateGraph(opsState)
    .addNode('analyze', async (state: OpsState, context: NodeContext) => {
      const { inner } = context.context as OpsRunContext;
      const prompt =
        state.attempt > 0 && state.feedback
          ? buildRetryPrompt(state.prompt, state.feedback)
          : state.prompt;
      const input = context.resume ? { answers: context.resume.answers } : { prompt };
      const result = await inner(input, { signal: context.signal, emit: context.emit });
      const innerSteps = [...state.innerSteps, ...result.steps];
      if (result.status === 'interrupted') {
        return interrupt(
          result.interrupts.map((pending) => ({
            key: pending.id,
            id: pending.id,
            value: pending.value,
            createdAt: pending.createdAt,
          })),
          { innerSteps },
        );
      }
      return {
        response: result.response,
        toolResults: result.toolResults,
        context: result.context,
        sources: result.sources,
        error: result.error,
        usage: addUsage(state.usage, result.usage, result.usage.llmCalls),
        toolsUsed: [...state.toolsUsed, ...result.toolsUsed],
        innerSteps,
      };
    })
    .addNode('evaluate', async (state, context) => {
      const usage = deps.judge
        ? { ...state.usage, llmCalls: state.usage.llmCalls + 1 }
        : state.usage;
      try {
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
        return { evaluation, usage };
      } catch (error) {
        // A judge that keeps failing (unreachable, or judgements that never parse) ends the
        // run in the `error` final status with the model's error code — never a failed node.
        if (context.signal.aborted || !isYeoulError(error)) throw error;
        return { error: { code: error.code, message: error.message }, response: '', usage };
      }
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
        const answer =
          state.response || modelFailureAnswer(isKorean(state.prompt), state.error.code);
        return { finalResponse: answer, finalStatus: 'error' as const };
      }
      return finalizeAnswer(state.verdict ?? 'pass', state.response);
    })
    .addEdge(START, 'analyze')
    .addConditionalEdges('analyze', (state) => (state.error ? 'finalize' : 'evaluate'), [
      'evaluate',
      'finalize',
    ])
    .addConditionalEdges('evaluate', (state) => (state.error ? 'finalize' : 'decide'), [
      'decide',
      'finalize',
    ])
    .addConditionalEdges(
      'decide',
      (state) => (state.verdict === 'regenerate' ? 'regenerate' : 'finalize'),
      ['regenerate', 'finalize'],
    )
    .addEdge('regenerate', 'analyze')
    .addEdge('finalize', END)
    .compile({ name: 'ops', maxSteps: 15, ...options });
}

/** The input of one ops run: the question, and the per-run fields reset. */
export function opsRunInput(prompt: string) {
  return {
    prompt,
    response: '',
    toolResults: [],
    context: '',
    evaluation: null,
    verdict: null,
    feedback: null,
    attempt: 0,
    finalResponse: '',
    finalStatus: 'pending' as const,
    error: null,
    usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
    toolsUsed: [],
    sources: [],
    innerSteps: [],
  };
}
