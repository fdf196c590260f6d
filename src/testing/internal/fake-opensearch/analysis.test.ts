import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAnalyzer, minimalEnglishStem } from './analysis.ts';
import { encodedLength } from './bm25.ts';
import { standardTokenize } from './standard-tokenizer.ts';

const cjk = buildAnalyzer(
  'text',
  {
    filter: {
      english_stop: { type: 'stop', stopwords: '_english_' },
      plural: { type: 'stemmer', language: 'minimal_english' },
    },
    analyzer: {
      text: {
        type: 'custom',
        tokenizer: 'standard',
        filter: ['cjk_width', 'lowercase', 'cjk_bigram', 'english_stop', 'plural'],
      },
    },
  },
  new Set(),
);

describe('fake OpenSearch analysis', () => {
  it('types tokens as StandardTokenizer does: Hangul runs, single ideographs, mixed words', () => {
    assert.deepEqual(
      standardTokenize('휴가정책은 中文 SK하이닉스 2024년 50,000 col:value ガイド').map((token) => [
        token.term,
        token.type,
      ]),
      [
        ['휴가정책은', '<HANGUL>'],
        ['中', '<IDEOGRAPHIC>'],
        ['文', '<IDEOGRAPHIC>'],
        ['SK하이닉스', '<ALPHANUM>'],
        ['2024년', '<ALPHANUM>'],
        ['50,000', '<NUM>'],
        ['col:value', '<ALPHANUM>'],
        ['ガイド', '<KATAKANA>'],
      ],
    );
  });

  it('bigrams a CJK run, keeps a lone character as a unigram and never bigrams across a space', () => {
    assert.deepEqual(cjk('휴가정책은'), ['휴가', '가정', '정책', '책은']);
    assert.deepEqual(cjk('해'), ['해']);
    assert.deepEqual(cjk('휴가 정책'), ['휴가', '정책']);
    assert.deepEqual(cjk('中文字'), ['中文', '文字']);
  });

  it('leaves a token mixing Latin letters or digits with Hangul whole, as Lucene does', () => {
    assert.deepEqual(cjk('SK하이닉스 2024년 Q3'), ['sk하이닉스', '2024년', 'q3']);
  });

  it('splits Latin letters and digits from Hangul with a pattern_replace char filter', () => {
    const split = buildAnalyzer(
      'split',
      {
        char_filter: {
          boundary: {
            type: 'pattern_replace',
            pattern: '(?<=[A-Za-z0-9])(?=[가-힣])|(?<=[가-힣])(?=[A-Za-z0-9])',
            replacement: ' ',
          },
        },
        analyzer: {
          split: {
            type: 'custom',
            char_filter: ['boundary'],
            tokenizer: 'standard',
            filter: ['lowercase', 'cjk_bigram'],
          },
        },
      },
      new Set(),
    );
    assert.deepEqual(split('SK하이닉스 2024년'), ['sk', '하이', '이닉', '닉스', '2024', '년']);
  });

  it('folds full-width Latin and half-width katakana before bigramming', () => {
    assert.deepEqual(cjk('Ｔｅｓｔ ｶﾞｲﾄﾞ'), ['test', 'ガイ', 'イド']);
  });

  it('drops English stop words and stems plurals minimally', () => {
    assert.deepEqual(cjk('The budgets of the policies'), ['budget', 'policy']);
    assert.deepEqual(['class', 'status', 'does', 'boxes', 'cars', 'is'].map(minimalEnglishStem), [
      'class',
      'status',
      'does',
      'boxe',
      'car',
      'is',
    ]);
  });

  it('refuses analyzers it does not emulate, nori included', () => {
    assert.throws(
      () =>
        buildAnalyzer(
          'k',
          {
            tokenizer: { n: { type: 'nori_tokenizer' } },
            analyzer: { k: { type: 'custom', tokenizer: 'n' } },
          },
          new Set(['analysis-nori']),
        ),
      /fake-opensearch does not implement analyzer \[k\] with tokenizer \[nori_tokenizer\]/,
    );
    assert.throws(
      () =>
        buildAnalyzer(
          'k',
          {
            tokenizer: { n: { type: 'nori_tokenizer' } },
            analyzer: { k: { type: 'custom', tokenizer: 'n' } },
          },
          new Set(),
        ),
      /Unknown tokenizer type \[nori_tokenizer\]/,
    );
  });

  it('encodes field lengths as Lucene norms do: exact up to 23, then four significant bits', () => {
    assert.deepEqual([1, 23, 24, 25, 40, 41, 100].map(encodedLength), [1, 23, 24, 25, 40, 40, 96]);
  });
});
