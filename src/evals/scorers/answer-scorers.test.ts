import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evalOutcome } from '../../testing/internal/index.ts';
import { containsScorer } from './contains-scorer.ts';
import { exactScorer } from './exact-scorer.ts';

const tools = {};

describe('contains', () => {
  it('finds the expected text, numbers compared by value', async () => {
    const outcome = evalOutcome({ expected: '56088', response: '123 * 456 = 56,088입니다.' });
    assert.deepEqual(await containsScorer.score(outcome, tools), {
      score: 1,
      passed: true,
      reason: 'the answer states "56088"',
    });
    const reverse = evalOutcome({ expected: '56,088', response: 'It is 56088.' });
    assert.equal((await containsScorer.score(reverse, tools)).passed, true);
  });

  it('fails on a wrong number and names what was missing', async () => {
    const outcome = evalOutcome({ expected: '56088', response: '123 * 456 = 56,086입니다.' });
    const result = await containsScorer.score(outcome, tools);
    assert.equal(result.passed, false);
    assert.equal(result.score, 0);
    assert.match(result.reason, /does not state "56088"/);
  });

  it('reads only the last answer of a multi-turn item', async () => {
    const outcome = evalOutcome({
      input: ['내 이름은 철수야', '내 이름이 뭐라고 했지?'],
      responses: ['반가워요, 철수님!', '이름을 모르겠어요.'],
      expected: '철수',
    });
    assert.equal((await containsScorer.score(outcome, tools)).passed, false);
  });
});

describe('exact', () => {
  it('passes only on the same text (ends trimmed)', async () => {
    const same = evalOutcome({ expected: '579', response: ' 579\n' });
    assert.equal((await exactScorer.score(same, tools)).passed, true);
    const longer = evalOutcome({ expected: '579', response: '579입니다.' });
    assert.equal((await exactScorer.score(longer, tools)).passed, false);
  });
});
