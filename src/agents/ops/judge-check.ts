import { z } from 'zod';
import { type ChatModel, truncateToTokens } from '../../models/index.ts';
import { isKorean } from '../prompts.ts';
import type { CheckResult, EvaluationInput } from './evaluation-types.ts';

/** What the judge answers: a score from 0 to 1 and what to improve. */
export const judgeSchema = z.object({
  score: z.number().min(0).max(1).describe('0 = wrong or unsupported, 1 = accurate and grounded'),
  feedback: z.string().describe('What to fix, in the language of the question; empty if nothing'),
});

const judgeInstructions = [
  '당신은 운영 에이전트 답변의 품질 심사관입니다. You judge an operations agent’s answer.',
  '질문, 도구 결과, 참고 문서, 답변을 보고 답변이 정확한지, 도구 결과와 문서에 근거하는지(특히 건수와 숫자),',
  '질문에 충실한지 평가하세요. 도구 결과의 count는 도구가 센 정확한 수입니다.',
  'score: 0~1 사이의 숫자, feedback: 질문과 같은 언어로 쓴 개선점(문제가 없으면 빈 문자열).',
].join('\n');

/** Shares of the judge's input budget for each part of what it reads. */
const shares = { question: 0.1, toolResults: 0.35, context: 0.15, answer: 0.2 } as const;

/**
 * (c) A judge: the model rates the answer through structured output (real models only).
 * What it reads is cut to the model's input budget (long log results are shortened, never
 * refused). A judgement that does not parse is retried by the model call; one that keeps
 * failing throws the model's error, which ends the ops run in the ERROR status.
 */
export async function judgeCheck(
  model: ChatModel,
  input: EvaluationInput,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const budget = model.settings.maxInputTokens;
  const part = (text: string, share: number) => truncateToTokens(text, Math.floor(budget * share));
  const none = isKorean(input.question) ? '(없음)' : '(none)';
  const content = [
    `[질문 / Question]\n${part(input.question, shares.question)}`,
    `[도구 결과 / Tool results]\n${part(input.toolResults.join('\n'), shares.toolResults) || none}`,
    `[참고 문서 / Documents]\n${part(input.context, shares.context) || none}`,
    `[답변 / Answer]\n${part(input.answer, shares.answer)}`,
  ].join('\n\n');
  const { object } = await model.generateObject(judgeSchema, {
    system: judgeInstructions,
    messages: [{ role: 'user', content }],
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  return {
    name: 'judge',
    score: object.score,
    passed: object.score >= 0.7,
    feedback: object.score >= 0.7 ? '' : object.feedback,
  };
}
