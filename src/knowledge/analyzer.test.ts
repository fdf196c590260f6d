import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexTerms, queryTerms, weightedQueryTerms } from './analyzer.ts';
import { stripKoreanSuffix } from './korean-words.ts';

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

  it('keeps nouns that merely begin with a question word (왜구, 인지세법, 몇몇)', () => {
    assert.deepEqual(queryTerms('왜구가 쳐들어왔나'), [
      '왜구',
      '쳐들',
      '들어',
      '어왔',
      '왔나',
      '쳐들어왔나',
    ]);
    assert.ok(queryTerms('인지세법이 제정된 해는 몇 년인가?').includes('인지세법'));
    assert.deepEqual(queryTerms('왜요? 몇째? 뭐라고?'), []);
  });

  it('strips the endings of noun-based predicates so any conjugation meets the noun', () => {
    assert.deepEqual(queryTerms('설치되었나'), ['설치']);
    assert.deepEqual(queryTerms('주장한'), ['주장']);
    assert.deepEqual(queryTerms('즉위하였다'), ['즉위']);
    assert.deepEqual(queryTerms('불가능한'), ['불가', '가능', '불가능']);
  });

  it('weighs the bigrams of a word by one over the root of their count, without the whole word', () => {
    const weights = Object.fromEntries(
      weightedQueryTerms('훈민정음을 세종이 해 Python').map(({ term, weight }) => [term, weight]),
    );
    assert.deepEqual(Object.keys(weights), ['훈민', '민정', '정음', '세종', '해', 'python']);
    assert.equal(weights.훈민, 1 / Math.sqrt(3));
    assert.equal(weights.세종, 1);
    assert.equal(weights.해, Math.SQRT1_2);
    assert.equal(weights.python, 1);
  });

  it('gives a bigram two words share the larger of their weights', () => {
    const weights = new Map(
      weightedQueryTerms('정책 휴가정책').map(({ term, weight }) => [term, weight]),
    );
    assert.equal(weights.get('정책'), 1);
    assert.equal(weights.get('휴가'), 1 / Math.sqrt(3));
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
