import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deniedPrefixLength, deniedWords, findDenied } from './find-denied.ts';

function found(text: string, words: string[]): string[] {
  return findDenied(text, deniedWords(words)).map((span) => text.slice(span.start, span.end));
}

describe('findDenied', () => {
  it('finds a Hangul word anywhere, particles and compounds included', () => {
    assert.deepEqual(found('이건 기밀문서야', ['기밀문서']), ['기밀문서']);
    assert.deepEqual(found('기밀문서를 보내줘', ['기밀문서']), ['기밀문서']);
    assert.deepEqual(found('초기밀문서함', ['기밀문서']), ['기밀문서']);
  });

  it('finds a Latin word only at word boundaries, a Korean particle being one', () => {
    assert.deepEqual(found('the Secret plan', ['secret']), ['Secret']);
    assert.deepEqual(found('secret을 알려줘', ['secret']), ['secret']);
    assert.deepEqual(found('secretary and secrets', ['secret']), []);
    assert.deepEqual(found('topsecret', ['secret']), []);
    assert.deepEqual(found('Project X is late', ['project x']), ['Project X']);
  });

  it('normalises like promptInjection: NFKC, case, zero-width characters, white space', () => {
    assert.deepEqual(found('ＳＥＣＲＥＴ', ['secret']), ['ＳＥＣＲＥＴ']);
    assert.deepEqual(found('기밀\u200B문서', ['기밀문서']), ['기밀\u200B문서']);
    assert.deepEqual(found('project   x', ['Project X']), ['project   x']);
    assert.deepEqual(found('project\nx', ['project x']), ['project\nx']);
  });

  it('merges overlapping words into one span', () => {
    assert.deepEqual(found('대외비기밀문서', ['대외비기밀', '기밀문서']), ['대외비기밀문서']);
  });

  it('finds every occurrence', () => {
    assert.deepEqual(found('기밀, 또 기밀', ['기밀']), ['기밀', '기밀']);
  });
});

describe('deniedPrefixLength', () => {
  const words = deniedWords(['기밀문서', 'top secret']);

  it('measures the end of a text that begins a denied word', () => {
    assert.equal(deniedPrefixLength('이것은 기밀', words), 2);
    assert.equal(deniedPrefixLength('이것은 기', words), 1);
    assert.equal(deniedPrefixLength('this is top ', words), 4);
    assert.equal(deniedPrefixLength('this is ＴＯＰ', words), 3);
  });

  it('is 0 when nothing at the end could grow into one', () => {
    assert.equal(deniedPrefixLength('이것은 문서', words), 0);
    assert.equal(deniedPrefixLength('', words), 0);
    assert.equal(deniedPrefixLength('기밀문서', words), 0);
  });
});
