import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evalOutcome } from '../../testing/internal/index.ts';
import { groundedScorer } from './grounded-scorer.ts';

const tools = {};
const logSearch = {
  count: 17,
  events: [
    {
      timestamp: '2025-03-14T05:07:38.837Z',
      service: 'payment-service',
      status: 500,
      message: 'timed out',
    },
  ],
};

describe('grounded', () => {
  it('passes when every number is in the tool results or the input', async () => {
    const outcome = evalOutcome({
      input: '123 * 456 계산해줘',
      response: '123 * 456 = 56,088입니다.',
      toolCalls: [{ name: 'calculator', result: { expression: '123 * 456', result: 56088 } }],
    });
    const result = await groundedScorer.score(outcome, tools);
    assert.equal(result.passed, true, result.reason);
  });

  it('fails on a number that no tool returned', async () => {
    const outcome = evalOutcome({
      input: '123 * 456 계산해줘',
      response: '123 * 456 = 56,086입니다.',
      toolCalls: [{ name: 'calculator', result: { expression: '123 * 456', result: 56088 } }],
    });
    const result = await groundedScorer.score(outcome, tools);
    assert.equal(result.passed, false);
    assert.match(result.reason, /56086/);
  });

  it('fails on a wrong count of a log search, naming the real one', async () => {
    const outcome = evalOutcome({
      input: 'payment-service에서 500 에러 로그 보여줘',
      response: 'payment-service에서 500 에러가 12건 있습니다.',
      toolCalls: [{ name: 'query_logs', result: logSearch }],
    });
    const result = await groundedScorer.score(outcome, tools);
    assert.equal(result.passed, false);
    assert.match(result.reason, /실제 이벤트 수는 17건입니다/);
    const right = evalOutcome({
      input: 'payment-service에서 500 에러 로그 보여줘',
      response:
        'payment-service에서 500 에러가 17건 있습니다. 최근: 2025-03-14T05:07:38.837Z timed out',
      toolCalls: [{ name: 'query_logs', result: logSearch }],
    });
    assert.equal((await groundedScorer.score(right, tools)).passed, true);
  });

  it('checks numbers against the retrieved context, and with nothing else against the input', async () => {
    const context = '연차는 입사 첫해에 15일이 주어집니다.';
    const fine = evalOutcome({ input: '휴가 정책?', response: '연차는 15일입니다.', context });
    assert.equal((await groundedScorer.score(fine, tools)).passed, true);
    const invented = evalOutcome({ input: '휴가 정책?', response: '연차는 20일입니다.', context });
    assert.equal((await groundedScorer.score(invented, tools)).passed, false);
    const bare = evalOutcome({ input: '안녕하세요', response: '예산은 300만원입니다.' });
    assert.equal((await groundedScorer.score(bare, tools)).passed, false);
  });

  it('names the turn of a multi-turn item that states an unsupported number', async () => {
    const outcome = evalOutcome({
      input: ['123 * 456 계산해줘', '고마워'],
      responses: ['123 * 456 = 56,088입니다.', '참고로 답은 99입니다.'],
      toolCalls: [{ name: 'calculator', result: { result: 56088 } }],
    });
    const result = await groundedScorer.score(outcome, tools);
    assert.equal(result.passed, false);
    assert.match(result.reason, /^turn 2: /);
  });
});
