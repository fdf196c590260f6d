/** The verdicts of seed 001. */
export type Verdict = 'pass' | 'regenerate' | 'block';

/** A workflow's final status (seed 001 WorkflowStatus). */
export type FinalStatus = 'pending' | 'published' | 'rejected' | 'error';

/** The prefix of a blocked answer (seed 001 FINALIZE). */
export const blockPrefix = '⚠️ 응답 품질 검증 주의\n\n';

/** The feedback used when the evaluation gave none (seed 001 REGENERATE). */
export const defaultFeedback =
  '이전 응답의 품질이 부족합니다. 도구 결과를 더 정확하게 인용해주세요.';

/**
 * Seed 001 DECIDE: ≥ 0.7 PASS; < 0.3 BLOCK; otherwise REGENERATE, unless this was the
 * last attempt (attempt ≥ max_attempts − 1), then PASS.
 */
export function decideVerdict(score: number, attempt: number, maxAttempts: number): Verdict {
  if (score >= 0.7) return 'pass';
  if (score < 0.3) return 'block';
  if (attempt >= maxAttempts - 1) return 'pass';
  return 'regenerate';
}

/** Seed 001 FINALIZE: the answer shown and the status, from the verdict. */
export function finalizeAnswer(
  verdict: Verdict,
  response: string,
): { finalResponse: string; finalStatus: FinalStatus } {
  if (verdict === 'block')
    return { finalResponse: `${blockPrefix}${response}`, finalStatus: 'rejected' };
  return { finalResponse: response, finalStatus: 'published' };
}

/** The prompt of a retry: the question with the evaluation's feedback (seed 001 build_retry_prompt). */
export function buildRetryPrompt(prompt: string, feedback: string): string {
  return `${prompt}\n\n[이전 응답에 대한 피드백]\n${feedback}\n위 피드백을 반영하여 다시 답변해주세요.`;
}
