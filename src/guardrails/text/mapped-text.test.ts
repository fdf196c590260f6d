import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldText, foldWithOffsets } from './fold-text.ts';
import { holdFrom } from './hold-from.ts';
import { nfkcWithOffsets, originalRange } from './mapped-text.ts';

describe('nfkcWithOffsets', () => {
  it('keeps a text NFKC leaves alone, offsets and all', () => {
    const mapped = nfkcWithOffsets('카드 4111 입니다');
    assert.equal(mapped.text, '카드 4111 입니다');
    assert.equal(mapped.starts, undefined);
  });

  it('maps each normalised unit back to the characters it came from', () => {
    const original = 'a１２ﬁ㎏b';
    const mapped = nfkcWithOffsets(original);
    assert.equal(mapped.text, 'a12fikgb');
    assert.deepEqual(originalRange(mapped, 1, 3), [1, 3]); // "12" ← "１２"
    assert.deepEqual(originalRange(mapped, 3, 5), [3, 4]); // "fi" ← "ﬁ"
    assert.deepEqual(originalRange(mapped, 7, 8), [5, 6]); // "b"
  });

  it('composes what joins (a Hangul syllable and its final consonant, a letter and its accent)', () => {
    assert.equal(nfkcWithOffsets('\u1100\u1161\u11A8 ４').text, '각 4');
    assert.equal(nfkcWithOffsets('e\u0301 ４').text, 'é 4');
    assert.equal(nfkcWithOffsets('가\u11A8 ４').text, '각 4');
  });

  it('agrees with whole-text NFKC on mixed text', () => {
    for (const text of [
      '카드 ４１１１－１１１１',
      'ｈｏｎｇ＠ｅｘａｍｐｌｅ．ｃｏｍ으로',
      '①②③ ㈜한국 ㎡',
      'ｶﾞ ﾊﾟ 2',
    ]) {
      assert.equal(nfkcWithOffsets(text).text, text.normalize('NFKC'), text);
    }
  });
});

describe('foldText and foldWithOffsets', () => {
  it('remove zero-width characters, fold case and width, collapse white space', () => {
    assert.equal(foldText('ＩＧＮＯＲＥ\u200B  Previous\n\tRules'), 'ignore previous rules');
    assert.equal(
      foldWithOffsets('ＩＧＮＯＲＥ\u200B  Previous\n\tRules').text,
      'ignore previous rules',
    );
  });

  it('map a folded range back to the original, the removed characters inside it', () => {
    const original = 'AB\u200BC  D';
    const mapped = foldWithOffsets(original);
    assert.equal(mapped.text, 'abc d');
    assert.deepEqual(originalRange(mapped, 0, 3), [0, 4]);
    assert.deepEqual(originalRange(mapped, 3, 5), [4, 7]);
  });
});

describe('holdFrom', () => {
  it('holds the current number with its separators, or the current word', () => {
    assert.equal(holdFrom('전화는 010-1234-', 256), 4);
    assert.equal(holdFrom('카드 4111 1111 ', 256), 3);
    assert.equal(holdFrom('메일 hong@exa', 256), 3);
    assert.equal(holdFrom('hello wor', 256), 6);
    assert.equal(holdFrom('국제 +82 ', 256), 3);
  });

  it('holds nothing after Hangul, punctuation or a space after a word', () => {
    assert.equal(holdFrom('안녕하세요', 256), 5);
    assert.equal(holdFrom('번호 010-1234-5678입', 256), 17);
    assert.equal(holdFrom('hello ', 256), 6);
    assert.equal(holdFrom('끝.\n', 256), 3);
  });

  it('holds full-width forms and a lone high surrogate', () => {
    assert.equal(holdFrom('카드 ４１１１', 256), 3);
    assert.equal(holdFrom('웃음 \uD83D', 256), 3);
    assert.equal(holdFrom('웃음 😀', 256), 5);
  });

  it('looks back no further than the limit', () => {
    assert.equal(holdFrom('x'.repeat(1000), 256), 1000 - 257);
  });
});
