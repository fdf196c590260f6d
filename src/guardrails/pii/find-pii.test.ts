import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPii, type PiiKind, piiKinds } from './find-pii.ts';

const every = { kinds: new Set(piiKinds), rrnChecksum: true };

function found(text: string, kinds: readonly PiiKind[] = piiKinds): string[] {
  return findPii(text, { kinds: new Set(kinds), rrnChecksum: true }).map(
    (match) => `${match.kind}:${text.slice(match.start, match.end)}`,
  );
}

describe('findPii', () => {
  it('finds every kind in one Korean message, in order', () => {
    const text =
      '안녕하세요. 제 주민번호는 900101-1234568이고, 카드는 4111-1111-1111-1111, 전화는 010-2345-6789, ' +
      '메일은 hong@example.com으로 주세요. 환불은 신한은행 110-123-456789로, 서버는 10.0.0.1입니다.';
    assert.deepEqual(found(text), [
      'rrn:900101-1234568',
      'card:4111-1111-1111-1111',
      'phone:010-2345-6789',
      'email:hong@example.com',
      'account:110-123-456789',
      'ip:10.0.0.1',
    ]);
  });

  it('maps full-width matches back to the original characters, with the NFKC value', () => {
    const text = '카드 ４１１１ １１１１ １１１１ １１１１ 와 ｈｏｎｇ＠ｅｘａｍｐｌｅ．ｃｏｍ';
    const matches = findPii(text, every);
    assert.deepEqual(
      matches.map((match) => [match.kind, text.slice(match.start, match.end), match.value]),
      [
        ['card', '４１１１ １１１１ １１１１ １１１１', '4111 1111 1111 1111'],
        ['email', 'ｈｏｎｇ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'hong@example.com'],
      ],
    );
  });

  it('keeps offsets right after characters NFKC expands or composes', () => {
    // ㎏ becomes "kg" and a decomposed 가 (ᄀ + ᅡ) composes: the match after them still lines up.
    const text = '무게 ㎏ \u1100\u1161 010-1234-5678';
    const [match] = findPii(text, every);
    assert.equal(text.slice(match?.start, match?.end), '010-1234-5678');
  });

  it('lets an address claim its digits before a phone number does', () => {
    assert.deepEqual(found('01012345678@example.com'), ['email:01012345678@example.com']);
  });

  it('never counts an account that another kind matched', () => {
    assert.deepEqual(found('계좌 010-1234-5678'), ['phone:010-1234-5678']);
    assert.deepEqual(found('계좌 4111111111111111'), ['card:4111111111111111']);
    assert.deepEqual(found('계좌 4111111111111111', ['account']), []); // 16 digits: no account
    assert.deepEqual(found('계좌 9001011234568', ['account']), ['account:9001011234568']);
    assert.deepEqual(found('계좌 9001011234568'), ['rrn:9001011234568']);
  });

  it('looks only for the kinds asked for', () => {
    assert.deepEqual(found('010-1234-5678 hong@example.com', ['email']), [
      'email:hong@example.com',
    ]);
    assert.deepEqual(found('10.0.0.1', ['rrn', 'card']), []);
  });

  it('finds nothing in text without digits or @', () => {
    assert.deepEqual(found('휴가 규정은 연차 15일입니다'.replace('15', '십오')), []);
    assert.deepEqual(found('Plain English text, no numbers.'), []);
  });

  it('reads superscripts and circled digits as digits (NFKC)', () => {
    assert.deepEqual(found('⓪①⓪-①②③④-⑤⑥⑦⑧'), ['phone:⓪①⓪-①②③④-⑤⑥⑦⑧']);
  });
});

describe('findPii on hostile input', () => {
  // Every detector is linear: these finish, whatever their size. No time is asserted; what is
  // asserted is that they return, with the right (empty or bounded) answer.
  it('returns on 200,000 digits in one run', () => {
    assert.deepEqual(found('1'.repeat(200_000)), []);
  });

  it('returns on 50,000 × "a@"', () => {
    assert.deepEqual(found('a@'.repeat(50_000)), []);
  });

  it('returns on long dotted and hyphenated numbers', () => {
    assert.deepEqual(found(Array.from({ length: 50_000 }, () => '1').join('.')), []);
    assert.deepEqual(found(Array.from({ length: 50_000 }, () => '010').join('-')), []);
    assert.deepEqual(found(`계좌 ${Array.from({ length: 30_000 }, () => '12').join('-')}`), []);
  });

  it('returns on 20,000 valid cards in a row, finding each once', () => {
    const text = '4111 1111 1111 1111, '.repeat(20_000);
    assert.equal(findPii(text, every).length, 20_000);
  });

  it('returns on an address-shaped run of 100,000 characters', () => {
    assert.deepEqual(found(`${'a.'.repeat(50_000)}@${'b.'.repeat(50_000)}`), []);
    assert.equal(findPii(`${'x'.repeat(100_000)}@${'y.'.repeat(60_000)}com`, every).length, 0);
  });

  it('returns on 100,000 "+82" prefixes and account words', () => {
    assert.deepEqual(found('+82 '.repeat(100_000)), []);
    assert.deepEqual(found('계좌 1 '.repeat(100_000)), []);
  });
});
