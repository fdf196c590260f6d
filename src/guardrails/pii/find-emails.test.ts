import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from './digit-runs.ts';
import { findEmails } from './find-emails.ts';

function found(text: string): string[] {
  const spans: Span[] = [];
  findEmails(text, spans);
  return spans.map((span) => text.slice(span.start, span.end));
}

describe('findEmails', () => {
  it('finds plain addresses', () => {
    assert.deepEqual(found('메일은 hong@example.com 입니다'), ['hong@example.com']);
    assert.deepEqual(found('kim.minsu+yeoul@mail.co.kr'), ['kim.minsu+yeoul@mail.co.kr']);
    assert.deepEqual(found('a_b%c-d@sub-domain.example.org'), ['a_b%c-d@sub-domain.example.org']);
  });

  it('ends an address at the first character outside it, Hangul included', () => {
    assert.deepEqual(found('hong@example.com으로 보내 주세요'), ['hong@example.com']);
    assert.deepEqual(found('담당자(lee@corp.kr)에게'), ['lee@corp.kr']);
    assert.deepEqual(found('<park@naver.com>'), ['park@naver.com']);
    assert.deepEqual(found('메일:choi@daum.net,'), ['choi@daum.net']);
    assert.deepEqual(found('이메일은hong@example.com입니다'), ['hong@example.com']);
  });

  it('leaves a sentence’s full stop or a trailing dash out', () => {
    assert.deepEqual(found('Write to hong@example.com.'), ['hong@example.com']);
    assert.deepEqual(found('hong@example.com-'), ['hong@example.com']);
  });

  it('wants a last label of 2–24 letters', () => {
    assert.deepEqual(found('a@b.c'), []);
    assert.deepEqual(found('user@localhost'), []);
    assert.deepEqual(found('user@example.c0m'), []);
    assert.deepEqual(found('user@192.168.0.1'), []);
    assert.deepEqual(found(`user@example.${'a'.repeat(25)}`), []);
    assert.deepEqual(found(`user@example.${'a'.repeat(24)}`), [`user@example.${'a'.repeat(24)}`]);
  });

  it('refuses a local part over 64 characters, or ending with a dot', () => {
    assert.deepEqual(found(`${'a'.repeat(65)}@example.com`), []);
    assert.deepEqual(found(`${'a'.repeat(64)}@example.com`), [`${'a'.repeat(64)}@example.com`]);
    assert.deepEqual(found('hong.@example.com'), []);
    assert.deepEqual(found('@example.com'), []);
  });

  it('drops dots before the local part', () => {
    assert.deepEqual(found('...hong@example.com'), ['hong@example.com']);
  });

  it('refuses domains with empty labels or labels starting or ending with a hyphen', () => {
    assert.deepEqual(found('hong@-example.com'), []);
    assert.deepEqual(found('hong@example-.com'), []);
    assert.deepEqual(found('hong@example..com'), []);
  });

  it('finds addresses side by side', () => {
    assert.deepEqual(found('a@x.com,b@y.org;c@z.net'), ['a@x.com', 'b@y.org', 'c@z.net']);
    assert.deepEqual(found('a@x.com b@y.org'), ['a@x.com', 'b@y.org']);
  });
});
