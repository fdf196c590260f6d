import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatModel } from '../../models/index.ts';
import { scriptedLanguageModel } from '../../testing/index.ts';
import { answerFormCheck, evaluateAnswer } from './evaluation.ts';
import { groundingCheck } from './grounding-check.ts';
import { judgeCheck } from './judge-check.ts';
import { numbersIn } from './read-numbers.ts';

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

describe('evaluation verdict bounds of the ops workflow', () => {
  const logs = JSON.stringify({
    count: 17,
    events: [{ timestamp: '2025-03-14T05:07:38.837Z', status: 500, message: 'timed out' }],
  });
  const question = 'payment-service에서 500 에러 로그 보여줘';
  const context =
    '[1] 결제 장애 대응 런북\ncard-gateway가 타임아웃되면 payment-service가 500을 냅니다.';
  const approving = () =>
    new ChatModel(scriptedLanguageModel([{ object: { score: 1, feedback: '' } }]), {
      provider: 'openai',
      modelId: 'judge',
    });

  it('keeps a wrong count between 0.3 and 0.7 however well the other checks do', async () => {
    const evaluation = await evaluateAnswer(
      {
        question,
        answer: '[1]에 따르면 card-gateway 타임아웃으로 500 에러가 12건 났습니다.',
        toolResults: [logs],
        context,
      },
      { judge: approving() },
    );
    assert.deepEqual(
      evaluation.checks.map((check) => [check.name, check.passed]),
      [
        ['grounding', false],
        ['answer_form', true],
        ['knowledge', true],
        ['judge', true],
      ],
    );
    assert.ok(evaluation.score >= 0.3 && evaluation.score < 0.7, String(evaluation.score));
    assert.match(evaluation.feedback ?? '', /^실제 이벤트 수는 17건입니다/);
  });

  it('keeps a wrong count at 0.3 at least, even when the language is wrong too', async () => {
    const evaluation = await evaluateAnswer({
      question,
      answer: 'There were 7 errors.',
      toolResults: [logs],
      context: '',
    });
    assert.equal(evaluation.score, 0.3);
  });

  it('keeps an answer that denies the findings below 0.3, whatever the judge says', async () => {
    const evaluation = await evaluateAnswer(
      {
        question,
        answer: 'payment-service에는 에러가 없습니다.',
        toolResults: [logs],
        context: '',
      },
      { judge: approving() },
    );
    assert.ok(evaluation.score < 0.3, String(evaluation.score));
  });

  it('passes the right count', async () => {
    const evaluation = await evaluateAnswer({
      question,
      answer: '500 에러는 17건입니다. 가장 최근: 2025-03-14T05:07:38.837Z timed out',
      toolResults: [logs],
      context: '',
    });
    assert.equal(evaluation.score, 1);
    assert.equal(evaluation.feedback, null);
  });
});
