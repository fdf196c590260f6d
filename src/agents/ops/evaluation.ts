import type { ChatModel } from '../../models/index.ts';
import { isKorean } from '../prompts.ts';
import type {
  AssessedCheck,
  CheckResult,
  Evaluation,
  EvaluationInput,
  Finding,
} from './evaluation-types.ts';
import { assessGrounding } from './grounding-check.ts';
import { judgeCheck } from './judge-check.ts';
import { knowledgeCheck } from './knowledge-check.ts';
import { readToolFacts } from './tool-facts.ts';

export type { CheckResult, Evaluation, EvaluationInput } from './evaluation-types.ts';

/**
 * Where a contradicted answer's score is kept: at least 0.3 (not blocked: a retry told the
 * real value can fix it) and below 0.7 (never passed), so the decide step regenerates it.
 */
const contradictedRange = { min: 0.3, max: 0.6 } as const;
/** The highest score of an ungrounded answer: below BLOCK's 0.3. */
const ungroundedMax = 0.2;

/** (b) The answer is not empty and is in the user's language. */
export function answerFormCheck(input: EvaluationInput): CheckResult {
  const wantsKorean = isKorean(input.question);
  if (input.answer.trim() === '') {
    return {
      name: 'answer_form',
      score: 0,
      passed: false,
      feedback: wantsKorean
        ? '응답이 비어 있습니다. 질문에 답하세요.'
        : 'The answer is empty. Answer the question.',
    };
  }
  if (wantsKorean !== isKorean(input.answer)) {
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

/**
 * Runs the checks — grounding, answer form, the knowledge base when the answer cites a
 * document, and the judge when a real model is given — and combines them: the score is
 * their mean, kept between 0.3 and 0.7 when a count, number or citation contradicts the
 * sources (a REGENERATE verdict) and below 0.3 when the answer denies what the tools found
 * (BLOCK). The judge's failure (after its retries) is thrown.
 * @example
 * const evaluation = await evaluateAnswer({ question, answer: '12건입니다', toolResults, context: '' });
 * evaluation.feedback // '실제 이벤트 수는 17건입니다. …'
 */
export async function evaluateAnswer(
  input: EvaluationInput,
  options: { judge?: ChatModel; signal?: AbortSignal } = {},
): Promise<Evaluation> {
  const facts = readToolFacts(input.toolResults);
  const assessed: AssessedCheck[] = [
    assessGrounding(input, facts),
    { check: answerFormCheck(input), finding: 'fine' },
  ];
  const knowledge = knowledgeCheck(input, facts);
  if (knowledge) assessed.push(knowledge);
  if (options.judge) {
    assessed.push({
      check: await judgeCheck(options.judge, input, options.signal),
      finding: 'fine',
    });
  }
  const checks = assessed.map((entry) => entry.check);
  const mean = checks.reduce((sum, check) => sum + check.score, 0) / checks.length;
  const score = weigh(
    mean,
    assessed.map((entry) => entry.finding),
  );
  const feedback = checks
    .filter((check) => !check.passed && check.feedback)
    .map((check) => check.feedback)
    .join(' ');
  return { score: Math.round(score * 1000) / 1000, checks, feedback: feedback || null };
}

/** The mean, bounded by the gravest finding. */
function weigh(mean: number, findings: Finding[]): number {
  if (findings.includes('ungrounded')) return Math.min(mean, ungroundedMax);
  if (findings.includes('contradicted')) {
    return Math.min(Math.max(mean, contradictedRange.min), contradictedRange.max);
  }
  return mean;
}
