import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayStateProfileFact, profileKeyOf, ruleProfileFacts } from './profile-facts.ts';

describe('profile facts', () => {
  it('lets self-statements through the gate and keeps questions and other turns out', () => {
    for (const stated of [
      '내 이름은 철수야',
      '우리 팀은 결제팀이야',
      'I prefer answers in English',
      'my name is Alice',
      '저는 파이썬을 좋아해요',
      '영어로 답해줘',
    ]) {
      assert.equal(mayStateProfileFact(stated), true, stated);
    }
    for (const other of [
      '내 이름이 뭐라고 했지?',
      'what is my name',
      '123 * 456 계산해줘',
      '서울 날씨 어때?',
      '연차는 며칠인가요?',
      '안녕하세요',
      'payment-service에서 500 에러 로그 보여줘',
    ]) {
      assert.equal(mayStateProfileFact(other), false, other);
    }
  });

  it('reads the name, the team and the answer language by rules', () => {
    assert.deepEqual(ruleProfileFacts('내 이름은 철수야'), [{ key: 'name', value: '철수' }]);
    assert.deepEqual(ruleProfileFacts('우리 팀은 결제팀이야'), [{ key: 'team', value: '결제팀' }]);
    assert.deepEqual(ruleProfileFacts('I prefer answers in English'), [
      { key: 'language', value: 'English' },
    ]);
    const [note] = ruleProfileFacts('저는 파이썬을 좋아해요');
    assert.match(note?.key ?? '', /^note-[0-9a-z]+$/);
    assert.equal(note?.value, '저는 파이썬을 좋아해요');
    assert.equal(ruleProfileFacts('저는 파이썬을 좋아해요')[0]?.key, note?.key);
  });

  it('makes model-proposed keys safe for the store', () => {
    assert.equal(profileKeyOf('Answer Style'), 'answer_style');
    assert.equal(profileKeyOf('%*'), 'note');
    assert.equal(profileKeyOf('x'.repeat(90)).length, 64);
  });
});
