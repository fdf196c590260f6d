import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digitRuns, type Span } from './digit-runs.ts';
import { findAccounts, hasAccountKeyword } from './find-accounts.ts';
import { findIps } from './find-ips.ts';

function accounts(text: string): string[] {
  const spans: Span[] = [];
  findAccounts(digitRuns(text), spans);
  return spans.map((span) => text.slice(span.start, span.end));
}

function ips(text: string): string[] {
  const spans: Span[] = [];
  findIps(digitRuns(text), spans);
  return spans.map((span) => text.slice(span.start, span.end));
}

describe('findAccounts', () => {
  it('finds accounts right after a bank word', () => {
    assert.deepEqual(accounts('신한은행 110-123-456789'), ['110-123-456789']);
    assert.deepEqual(accounts('국민은행 계좌 123456-01-123456으로 입금'), ['123456-01-123456']);
    assert.deepEqual(accounts('입금 계좌: 3333-01-1234567'), ['3333-01-1234567']);
    assert.deepEqual(accounts('카카오뱅크 3333011234567'), ['3333011234567']);
    assert.deepEqual(accounts('예금주 홍길동 1002-123-456789'), ['1002-123-456789']);
    assert.deepEqual(accounts('Account no. 110-123-456789'), ['110-123-456789']);
    assert.deepEqual(accounts('송금해 주세요 110123456789'), ['110123456789']);
    assert.deepEqual(accounts('통장 12-34-56-7890'), ['12-34-56-7890']);
  });

  it('passes the same numbers without a bank word', () => {
    assert.deepEqual(accounts('주문번호 110-123-456789'), []);
    assert.deepEqual(accounts('110-123-456789'), []);
    assert.deepEqual(accounts('송장번호 1234567890'), []);
  });

  it('counts a word only within 15 characters before, on the same line', () => {
    assert.deepEqual(accounts('은행 가는 길에 있는 큰 건물 1층 번호 1234567890'), []);
    assert.deepEqual(accounts('계좌\n1234567890'), []);
    assert.deepEqual(accounts(`계좌${' '.repeat(15)}1234567890`), ['1234567890']);
    assert.deepEqual(accounts(`계좌${' '.repeat(16)}1234567890`), []);
  });

  it('wants 10–14 digits in 1–4 groups', () => {
    assert.deepEqual(accounts('계좌 123456789'), []);
    assert.deepEqual(accounts('계좌 123456789012345'), []);
    assert.deepEqual(accounts('계좌 1-2-3-4-567890'), []);
    assert.deepEqual(accounts('계좌 12345678901234'), ['12345678901234']);
  });

  it('reads the keyword case-blind', () => {
    assert.equal(hasAccountKeyword('ACCOUNT: ', 9), true);
  });
});

describe('findIps', () => {
  it('finds IPv4 addresses', () => {
    assert.deepEqual(ips('서버 192.168.0.1에 접속'), ['192.168.0.1']);
    assert.deepEqual(ips('10.0.0.255.'), ['10.0.0.255']);
    assert.deepEqual(ips('0.0.0.0'), ['0.0.0.0']);
  });

  it('refuses parts over 255, leading zeros and longer dotted numbers', () => {
    assert.deepEqual(ips('256.1.1.1'), []);
    assert.deepEqual(ips('192.168.01.1'), []);
    assert.deepEqual(ips('1.2.3.4.5'), []);
    assert.deepEqual(ips('1.2.3'), []);
    assert.deepEqual(ips('v1.2.3.4'), ['1.2.3.4']);
  });
});
