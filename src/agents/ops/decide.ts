/** The verdicts of the self-correcting ops workflow: pass, regenerate, block. */
export type Verdict = 'pass' | 'regenerate' | 'block';

/** An ops workflow's final status: pending until finalized, then published, rejected or error. */
export type FinalStatus = 'pending' | 'published' | 'rejected' | 'error';

/** The warning prefix a blocked answer is shown with when the workflow finalizes. */
export const blockPrefix = '⚠️ 응답 품질 검증 주의\n\n';

/** The feedback a REGENERATE verdict passes on when the evaluation gave none. */
export const defaultFeedback =
  '이전 응답의 품질이 부족합니다. 도구 결과를 더 정확하게 인용해주세요.';

/**
 * The decide step: ≥ 0.7 PASS; < 0.3 BLOCK; otherwise REGENERATE, unless this was the
 * last attempt (attempt ≥ max_attempts − 1), then PASS.
 */
export function decideVerdict(score: number, attempt: number, maxAttempts: number): Verdict {
  if (score >= 0.7) return 'pass';
  if (score < 0.3) return 'block';
  if (attempt >= maxAttempts - 1) return 'pass';
  return 'regenerate';
}

/** The finalize step: the answer shown and the status (BLOCK: prefixed, rejected). */
export function finalizeAnswer(
  verdict: Verdict,
  response: string,
): { finalResponse: string; finalStatus: FinalStatus } {
  if (verdict === 'block')
    return { finalResponse: `${blockPrefix}${response}`, finalStatus: 'rejected' };
  return { finalResponse: response, finalStatus: 'published' };
}

/** A retry's prompt: the question, the evaluation's feedback, and a request to answer again. */
export function buildRetryPrompt(prompt: string, feedback: string): string {
  return `${prompt}\n\n[이전 응답에 대한 피드백]\n${feedback}\n위 피드백을 반영하여 다시 답변해주세요.`;
}
