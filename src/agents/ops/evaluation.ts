import { z } from 'zod';
import type { ChatModel } from '../../models/index.ts';
import { isKorean } from '../prompts.ts';

/** One check of an answer: its score (0..1), whether it passed, and feedback for a retry. */
export interface CheckResult {
  name: string;
  score: number;
  passed: boolean;
  feedback: string;
}

/** All checks of an answer, combined. */
export interface Evaluation {
  score: number;
  checks: CheckResult[];
  /** The failed checks' feedback, for the regenerate prompt. */
  feedback: string | null;
}

/** What an answer is checked against. */
export interface EvaluationInput {
  question: string;
  answer: string;
  /** What the tools returned in this attempt. */
  toolResults: string[];
  /** The reference documents the agent was given. */
  context: string;
}

/** Numbers as written ("56,088", "56088", "3.5", "4건"), normalised for comparison. */
export function numbersIn(text: string): string[] {
  // Digits glued to letters ("e3", "v2", "S3") are names, not quantities.
  return (
    text.match(/(?<![\p{L}\p{N}.])\d(?:[\d,]*\d)?(?:\.\d+)?(?![\p{Script=Latin}\p{N}])/gu) ?? []
  )
    .map((number) => number.replace(/,(?=\d{3}(?:\D|$))/g, '').replace(/\.0+$/, ''))
    .filter((number) => /^\d+(?:\.\d+)?$/.test(number));
}

/**
 * (a) Grounding: every number the answer states must appear in what the tools returned,
 * the documents, or the question (format-insensitive: 56088 = 56,088). Not applicable
 * (passes) when the answer states no numbers or there was nothing to check against.
 */
export function groundingCheck(input: EvaluationInput): CheckResult {
  const sources = [...input.toolResults, input.context, input.question].join('\n');
  const known = new Set(numbersIn(sources));
  const stated = [...new Set(numbersIn(input.answer))];
  if (stated.length === 0 || input.toolResults.length + input.context.trim().length === 0) {
    return { name: 'grounding', score: 1, passed: true, feedback: '' };
  }
  const unsupported = stated.filter((number) => !known.has(number));
  // One number that contradicts the tools makes the answer wrong, however many are right.
  const score = unsupported.length === 0 ? 1 : 0;
  const evidence = [...known]
    .filter((number) => !numbersIn(input.question).includes(number))
    .slice(0, 10);
  return {
    name: 'grounding',
    score,
    passed: unsupported.length === 0,
    feedback:
      unsupported.length === 0
        ? ''
        : `응답의 숫자 ${unsupported.join(', ')}은(는) 도구 결과나 참고 문서에 없습니다. 실제 값은 ${evidence.join(', ') || '(없음)'}입니다.`,
  };
}

/** (b) The answer is not empty and is in the user's language. */
export function answerFormCheck(input: EvaluationInput): CheckResult {
  if (input.answer.trim() === '') {
    return {
      name: 'answer_form',
      score: 0,
      passed: false,
      feedback: '응답이 비어 있습니다. 질문에 답하세요.',
    };
  }
  const wantsKorean = isKorean(input.question);
  const inKorean = isKorean(input.answer);
  if (wantsKorean !== inKorean) {
    return {
      name: 'answer_form',
      score: 0.5,
      passed: false,
      feedback: wantsKorean
        ? '사용자가 한국어로 물었으니 한국어로 답하세요.'
        : 'Answer in English, the language of the question.',
    };
  }
  return { name: 'answer_form', score: 1, passed: true, feedback: '' };
}

const judgeSchema = z.object({
  score: z.number().min(0).max(1),
  feedback: z.string(),
});

/** (c) A judge: the model rates the answer through structured output (real models only). */
export async function judgeCheck(
  model: ChatModel,
  input: EvaluationInput,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const { object } = await model.generateObject(judgeSchema, {
    system:
      '당신은 답변 품질 심사관입니다. 질문, 도구 결과, 답변을 보고 답변이 정확하고 도구 결과에 근거하며 질문에 충실한지 0~1 점수와 개선 피드백을 주세요.',
    messages: [
      {
        role: 'user',
        content: `[질문]\n${input.question}\n\n[도구 결과]\n${input.toolResults.join('\n') || '(없음)'}\n\n[답변]\n${input.answer}`,
      },
    ],
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

/** Runs the checks and combines them: the overall score is their mean. */
export async function evaluateAnswer(
  input: EvaluationInput,
  options: { judge?: ChatModel; signal?: AbortSignal } = {},
): Promise<Evaluation> {
  const checks = [groundingCheck(input), answerFormCheck(input)];
  if (options.judge) checks.push(await judgeCheck(options.judge, input, options.signal));
  const score = checks.reduce((sum, check) => sum + check.score, 0) / checks.length;
  const feedback = checks
    .filter((check) => !check.passed && check.feedback)
    .map((check) => check.feedback)
    .join(' ');
  return { score: Math.round(score * 1000) / 1000, checks, feedback: feedback || null };
}
