import type { RunResult, StateSchema } from '../../graph/index.ts';
import { redactSecrets } from '../../models/index.ts';
import {
  type AgentResponse,
  approvalOf,
  awaitingApprovalAnswer,
  cancelledAnswer,
} from '../agent-payload.ts';
import type { InnerAgentResult, OpsState } from '../ops/ops-state.ts';
import { isKorean } from '../prompts.ts';

/** A payload before the runner adds the session and the time, with the error's message. */
export type Payload = Omit<AgentResponse, 'sessionId' | 'runId' | 'executionTime'> & {
  errorMessage?: string;
};

/**
 * The response of a finished (or paused) run: its pending calls and its failure told to the
 * stream (`interrupt`, `error`), the error's message kept out (it may hold internals), and
 * the model of its last successful model call (`model`) when one succeeded.
 */
export function responseOf(
  payload: Payload,
  sessionId: string,
  runId: string,
  executionTime: number,
  emit: (name: string, data: unknown) => void,
  model?: string,
): AgentResponse {
  for (const pending of payload.interrupts ?? []) emit('interrupt', pending);
  if (payload.status === 'error' && payload.errorCode) {
    emit('error', { code: payload.errorCode, message: payload.errorMessage });
  }
  const { errorMessage: _hidden, ...body } = payload;
  return { ...body, ...(model === undefined ? {} : { model }), sessionId, runId, executionTime };
}

/** The response of a run stopped before its answer (with `model` when a model call had succeeded). */
export function cancelledResponse(
  korean: boolean,
  sessionId: string,
  runId: string,
  executionTime: number,
  model?: string,
): AgentResponse {
  return {
    ...(model === undefined ? {} : { model }),
    response: cancelledAnswer(korean),
    sessionId,
    runId,
    toolsUsed: [],
    executionTime,
    status: 'cancelled',
    steps: [],
    usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
  };
}

/** The payload of an agent's run outside the evaluation loop. */
export function innerPayload(result: InnerAgentResult): Payload {
  const interrupts = result.interrupts.map(approvalOf);
  const korean = isKorean(result.question);
  return {
    response:
      result.status === 'interrupted'
        ? awaitingApprovalAnswer(korean, interrupts)
        : result.response,
    toolsUsed: result.toolsUsed,
    status: result.status === 'interrupted' ? 'interrupted' : result.error ? 'error' : 'published',
    ...(result.error && result.status !== 'interrupted'
      ? {
          error: true as const,
          errorCode: result.error.code,
          errorMessage: redactSecrets(result.error.message),
        }
      : {}),
    ...(interrupts.length > 0 ? { interrupts } : {}),
    sources: result.sources,
    steps: result.steps,
    usage: result.usage,
  };
}

/** The payload of a run of the evaluation loop: its agent's steps inside its own. */
export function loopPayload(result: RunResult<StateSchema>, steps: string[]): Payload {
  const state = result.values as unknown as OpsState;
  const interrupts = result.interrupts.map(approvalOf);
  const allSteps = [...steps.slice(0, 1), ...state.innerSteps, ...steps.slice(1)];
  if (result.status === 'interrupted') {
    return {
      response: awaitingApprovalAnswer(isKorean(state.prompt), interrupts),
      toolsUsed: state.toolsUsed,
      status: 'interrupted',
      interrupts,
      sources: state.sources,
      steps: allSteps,
      usage: state.usage,
    };
  }
  return {
    response: state.finalResponse,
    toolsUsed: state.toolsUsed,
    status: state.finalStatus === 'pending' ? 'error' : state.finalStatus,
    ...(state.error
      ? {
          error: true as const,
          errorCode: state.error.code,
          errorMessage: redactSecrets(state.error.message),
        }
      : {}),
    sources: state.sources,
    steps: allSteps,
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
}
