import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexTerms, queryTerms, stripKoreanSuffix } from './analyzer.ts';

describe('analyzer', () => {
  it('indexes Hangul as character bigrams plus the particle-free word', () => {
    assert.deepEqual(indexTerms('휴가정책은'), ['휴가', '가정', '정책', '책은', '휴가정책']);
    assert.deepEqual(indexTerms('해'), ['해']);
  });

  it('matches a word whatever particle is glued to it', () => {
    const document = new Set(indexTerms('세종은 훈민정음을 창제하였다'));
    for (const term of queryTerms('훈민정음이 만들어진 해')) {
      if (term.length === 2 && term !== '만들' && term !== '들어' && term !== '어진') {
        assert.ok(document.has(term), term);
      }
    }
  });

  it('splits Latin letters and digits from Hangul, lower-casing them', () => {
    assert.deepEqual(indexTerms('SK하이닉스 2024년 Q3'), [
      'sk',
      '하이',
      '이닉',
      '닉스',
      '하이닉스',
      '2024',
      '년',
      'q3',
    ]);
  });

  it('drops question words and English stop words from queries', () => {
    assert.deepEqual(queryTerms('무엇인가?'), []);
    assert.deepEqual(queryTerms('What is the capital of France?'), ['capital', 'france']);
    assert.ok(!queryTerms('병가는 언제 쓸 수 있나요?').includes('언제'));
  });

  it('strips particles only when two syllables or more remain', () => {
    assert.equal(stripKoreanSuffix('정책을'), '정책');
    assert.equal(stripKoreanSuffix('서울에서'), '서울');
    assert.equal(stripKoreanSuffix('나이'), '나이');
  });

  it('never yields FTS syntax from punctuation', () => {
    assert.deepEqual(queryTerms('"(AND)" * ^ -- NEAR/3'), ['near', '3']);
  });
});
