import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { loadO200kTokenizer, readO200kRanks } from './o200k-tokenizer.ts';

const require = createRequire(import.meta.url);

describe('the o200k tokenizer built from the tiktoken file', () => {
  it('reads the same ranks as gpt-tokenizer’s own table, entry for entry', () => {
    const theirs = (
      require('gpt-tokenizer/cjs/bpeRanks/o200k_base') as { default: Array<string | number[]> }
    ).default;
    const ours = readO200kRanks();
    assert.equal(ours.length, theirs.length);
    let differing = 0;
    for (let rank = 0; rank < theirs.length; rank += 1) {
      const a = theirs[rank];
      const b = ours[rank];
      const same = typeof a === 'string' ? a === b : Array.isArray(b) && a?.join() === b.join();
      if (!same) differing += 1;
    }
    assert.equal(differing, 0);
  });

  it('counts as gpt-tokenizer does', () => {
    const library = require('gpt-tokenizer') as typeof import('gpt-tokenizer');
    const ours = loadO200kTokenizer();
    const asText = { disallowedSpecial: new Set<string>() };
    for (const text of [
      'hello world',
      '안녕하세요, 요청하신 내용을 정리해 드리겠습니다. 주민등록번호는 보내지 마세요.',
      '\uFEFFusing System; namespace App { class A {} }',
      'emoji 👩‍👩‍👧‍👦 and <|endoftext|> typed as text',
      `const x = ${'9'.repeat(50)}; // ${'ж'.repeat(40)}`,
      '\u0000\u0001 control \t\n\r and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    ]) {
      assert.equal(ours.countTokens(text, asText), library.countTokens(text, asText), text);
      assert.deepEqual(ours.encode(text, asText), library.encode(text, asText), text);
    }
  });
});
