import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatModel, readModelConfig, resolveModel } from '../../models/index.ts';
import { scriptedLanguageModel } from '../../testing/index.ts';
import { evalOutcome } from '../../testing/internal/index.ts';
import { judgeScorer } from './judge-scorer.ts';

const calculation = {
  input: '123 * 456 계산해줘',
  expected: '56088',
  toolCalls: [{ name: 'calculator', result: { result: 56088 } }],
};

describe('judge', () => {
  it('on the offline model grades by rule, deterministically, and says it is not a model', async () => {
    const judge = resolveModel(readModelConfig({}));
    const right = evalOutcome({ ...calculation, response: '123 * 456 = 56,088입니다.' });
    const first = await judgeScorer.score(right, { judge });
    assert.deepEqual(first, await judgeScorer.score(right, { judge }));
    assert.equal(first.score, 1);
    assert.match(first.reason, /rule-based grade, not a model's judgement/);
    const wrong = evalOutcome({ ...calculation, response: '123 * 456 = 56,000입니다.' });
    const graded = await judgeScorer.score(wrong, { judge });
    assert.equal(graded.passed, false);
    assert.equal(graded.score, 0);
  });

  it('asks a real provider with the schema in the prompt and retries an unparsable judgement', async () => {
    const script = scriptedLanguageModel([
      { text: 'I think it is fine' },
      { object: { correctness: 0.2, faithfulness: 0.4, reason: 'the product is wrong' } },
    ]);
    const judge = new ChatModel(
      script,
      { provider: 'compat', modelId: 'judge' },
      { retryBaseDelayMs: 1 },
    );
    const outcome = evalOutcome({ ...calculation, response: '123 * 456 = 56,000입니다.' });
    const result = await judgeScorer.score(outcome, { judge });
    assert.equal(script.calls.length, 2);
    const system = JSON.stringify(script.calls[0]?.prompt[0]);
    assert.match(system, /correctness/);
    assert.match(system, /faithfulness/);
    assert.equal(result.passed, false);
    assert.ok(Math.abs(result.score - 0.3) < 1e-9);
    assert.match(
      result.reason,
      /^compat:judge: correctness 0.2, faithfulness 0.4\. the product is wrong/,
    );
  });
});
