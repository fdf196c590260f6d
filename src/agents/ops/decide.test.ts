import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockPrefix, buildRetryPrompt, decideVerdict, finalizeAnswer } from './decide.ts';

describe('the ops decision', () => {
  it('follows the decision matrix for max_attempts 2', () => {
    const matrix: Array<[number, number, string]> = [
      [1.0, 0, 'pass'],
      [0.7, 0, 'pass'],
      [0.7, 1, 'pass'],
      [0.29, 0, 'block'],
      [0.0, 1, 'block'],
      [0.3, 0, 'regenerate'],
      [0.69, 0, 'regenerate'],
      [0.5, 1, 'pass'],
    ];
    for (const [score, attempt, verdict] of matrix) {
      assert.equal(decideVerdict(score, attempt, 2), verdict, `score ${score}, attempt ${attempt}`);
    }
  });

  it('regenerates longer when more attempts are allowed', () => {
    assert.equal(decideVerdict(0.5, 1, 3), 'regenerate');
    assert.equal(decideVerdict(0.5, 2, 3), 'pass');
  });

  it('publishes a pass, and rejects a block with the warning prefix', () => {
    assert.deepEqual(finalizeAnswer('pass', '4건입니다'), {
      finalResponse: '4건입니다',
      finalStatus: 'published',
    });
    assert.deepEqual(finalizeAnswer('block', '에러가 없습니다'), {
      finalResponse: '⚠️ 응답 품질 검증 주의\n\n에러가 없습니다',
      finalStatus: 'rejected',
    });
    assert.equal(blockPrefix, '⚠️ 응답 품질 검증 주의\n\n');
  });

  it('adds the feedback to the retry prompt', () => {
    const prompt = buildRetryPrompt('에러 로그 보여줘', '실제 이벤트 수는 4건입니다');
    assert.match(
      prompt,
      /^에러 로그 보여줘\n\n\[이전 응답에 대한 피드백\]\n실제 이벤트 수는 4건입니다/,
    );
  });
});
