import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encode } from 'gpt-tokenizer';
import { overLimit, shortened, tokensAtLeast } from './message-limit.ts';

const limits = { maxInputTokens: 4000, bodyLimit: 1024 * 1024 };

describe('message limits in the composer', () => {
  it('never counts more tokens than the server does', () => {
    for (const text of [
      'x'.repeat(100_000),
      ' '.repeat(50_000),
      '-'.repeat(50_000),
      'international '.repeat(3000),
      '안녕하세요 '.repeat(2000),
      '가'.repeat(20_000),
      '😀'.repeat(5000),
      '123 * 456 계산해줘',
    ]) {
      assert.ok(tokensAtLeast(text) <= encode(text).length, JSON.stringify(text.slice(0, 20)));
    }
  });

  it('refuses a message surely over the token or body limit, and lets a normal one through', () => {
    assert.deepEqual(overLimit('x'.repeat(100_000), limits), {
      limit: 'tokens',
      tokens: 6250,
      max: 4000,
    });
    assert.deepEqual(overLimit('말'.repeat(400_000), limits), { limit: 'bytes', max: 1048576 });
    assert.equal(overLimit('연차는 며칠이야?', limits), undefined);
  });

  it('shortens what it echoes to 200 characters, never splitting one', () => {
    assert.equal(shortened('짧은 글'), '짧은 글');
    const long = shortened('😀'.repeat(1000));
    assert.equal(Array.from(long).length, 201);
    assert.ok(long.endsWith('…'));
  });
});
