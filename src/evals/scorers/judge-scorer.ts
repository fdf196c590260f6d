import { z } from 'zod';
import { type ChatModel, truncateToTokens } from '../../models/index.ts';
import type { ItemOutcome, ScoreResult, Scorer } from '../types.ts';
import { groundedness } from './grounded-scorer.ts';
import { statesExpected } from './match-text.ts';

/** What the judge model answers. */
export const evalJudgeSchema = z.object({
  correctness: z.number().min(0).max(1).describe('how well the answer states the expected answer'),
  faithfulness: z
    .number()
    .min(0)
    .max(1)
    .describe('how well everything the answer states is supported by the context'),
  reason: z.string().describe('one or two sentences explaining the grades'),
});

const instructions = [
  'You grade an AI agent’s answer for an evaluation. 당신은 에이전트 답변의 채점자입니다.',
  'correctness: 0..1, whether the answer states what the expected answer says (1 when no expected answer is given and the answer fits the question).',
  'faithfulness: 0..1, whether every fact and number in the answer is supported by the tool results and documents (the context) or the question.',
  'reason: why, in one or two sentences.',
].join('\n');

/** Shares of the judge's input budget for each part of what it reads. */
const shares = { question: 0.15, expected: 0.1, context: 0.4, answer: 0.2 } as const;

/** A judgement passes at this mean of correctness and faithfulness. */
const passMark = 0.7;

/**
 * `judge`: a model grades correctness against `expected` and faithfulness to the context,
 * with a reason. It works with any provider: the schema is stated in the prompt and an
 * unparsable judgement is retried (`ChatModel.generateObject`, as the ops judge does). On
 * the offline model, which is not a language model, the grade is rule-based and
 * deterministic — `contains` for correctness, `grounded` for faithfulness — and its reason
 * says so.
 */
export const judgeScorer: Scorer = {
  name: 'judge',
  async score(outcome, tools) {
    const model = tools.judge;
    if (model === undefined) {
      return { score: 0, passed: false, reason: 'no judge model is configured' };
    }
    if (model.info.provider === 'offline') return ruleBasedGrade(outcome);
    return modelGrade(model, outcome, tools.signal);
  },
};

function ruleBasedGrade(outcome: ItemOutcome): ScoreResult {
  const expected = outcome.item.expected;
  const correctness = expected === undefined || statesExpected(outcome.response, expected) ? 1 : 0;
  const faithfulness = groundedness(outcome).score;
  const score = (correctness + faithfulness) / 2;
  return {
    score,
    passed: score >= passMark,
    reason: `rule-based grade, not a model's judgement (the offline model is not a language model): correctness ${correctness} (${
      expected === undefined
        ? 'nothing expected'
        : correctness
          ? 'states the expected answer'
          : 'does not state the expected answer'
    }), faithfulness ${faithfulness} (grounding check)`,
  };
}

async function modelGrade(
  model: ChatModel,
  outcome: ItemOutcome,
  signal: AbortSignal | undefined,
): Promise<ScoreResult> {
  const budget = model.settings.maxInputTokens;
  const part = (text: string, share: number) => truncateToTokens(text, Math.floor(budget * share));
  const context = [
    ...outcome.toolCalls.map((call) => `[${call.name}] ${call.result}`),
    outcome.context,
  ]
    .filter((text) => text.trim() !== '')
    .join('\n');
  const content = [
    `[Question]\n${part(outcome.turns.map((turn) => turn.input).join('\n'), shares.question)}`,
    `[Expected answer]\n${part(outcome.item.expected ?? '(none given)', shares.expected)}`,
    `[Context: tool results and documents]\n${part(context, shares.context) || '(none)'}`,
    `[Answer]\n${part(outcome.response, shares.answer)}`,
  ].join('\n\n');
  const { object } = await model.generateObject(evalJudgeSchema, {
    system: instructions,
    messages: [{ role: 'user', content }],
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  const score = (object.correctness + object.faithfulness) / 2;
  return {
    score,
    passed: score >= passMark,
    reason: `${model.info.provider}:${model.info.modelId}: correctness ${object.correctness}, faithfulness ${object.faithfulness}. ${object.reason}`,
  };
}
