import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatModel } from '../../models/index.ts';
import { scriptedLanguageModel } from '../../testing/index.ts';
import {
  answerFormCheck,
  evaluateAnswer,
  groundingCheck,
  judgeCheck,
  numbersIn,
} from './evaluation.ts';

const input = (
  answer: string,
  toolResults: string[] = ['123 * 456 = 56088'],
  question = '123 * 456 계산해줘',
) => ({
  question,
  answer,
  toolResults,
  context: '',
});

describe('evaluation checks', () => {
  it('reads numbers whatever their format', () => {
    assert.deepEqual(numbersIn('56,088건, 1,234,567 and 3.50 or 56088'), [
      '56088',
      '1234567',
      '3.50',
      '56088',
    ]);
  });

  it('grounding passes numbers the tools returned, in any format', () => {
    assert.deepEqual(groundingCheck(input('123 * 456 = 56,088입니다.')), {
      name: 'grounding',
      score: 1,
      passed: true,
      feedback: '',
    });
  });

  it('grounding fails a number no tool returned, with feedback naming the real values', () => {
    const check = groundingCheck(input('결과는 56,000입니다.'));
    assert.equal(check.passed, false);
    assert.equal(check.score, 0);
    assert.match(check.feedback, /56000/);
    assert.match(check.feedback, /56088/);
  });

  it('grounding does not apply without numbers or without sources', () => {
    assert.equal(groundingCheck(input('계산했습니다.')).passed, true);
    assert.equal(groundingCheck(input('42', [])).passed, true);
  });

  it('answer form wants a non-empty answer in the user’s language', () => {
    assert.equal(answerFormCheck(input('')).score, 0);
    assert.equal(answerFormCheck(input('The answer is 56,088.')).score, 0.5);
    assert.equal(answerFormCheck(input('답은 56,088입니다.')).passed, true);
  });

  it('the judge rates through structured output', async () => {
    const model = new ChatModel(
      scriptedLanguageModel([{ object: { score: 0.4, feedback: '도구 결과를 인용하세요' } }]),
      {
        provider: 'openai',
        modelId: 'judge',
      },
    );
    const check = await judgeCheck(model, input('답은 56,088입니다.'));
    assert.deepEqual(check, {
      name: 'judge',
      score: 0.4,
      passed: false,
      feedback: '도구 결과를 인용하세요',
    });
  });

  it('combines the checks into their mean, with the failed checks’ feedback', async () => {
    const evaluation = await evaluateAnswer(input('결과는 56,000입니다.'));
    assert.equal(evaluation.score, 0.5);
    assert.equal(evaluation.checks.length, 2);
    assert.match(evaluation.feedback ?? '', /56000/);
  });
});
