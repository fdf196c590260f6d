import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nfkcWithOffsets } from '../text/mapped-text.ts';
import { digitRuns, type Span } from './digit-runs.ts';
import { findPhones, isPhoneNumber } from './find-phones.ts';

function found(text: string): string[] {
  const normal = nfkcWithOffsets(text).text;
  const spans: Span[] = [];
  findPhones(digitRuns(normal), spans);
  return spans.map((span) => normal.slice(span.start, span.end));
}

describe('isPhoneNumber', () => {
  it('knows mobile, Seoul, regional and 070 prefixes', () => {
    for (const prefix of ['010', '011', '016', '017', '018', '019']) {
      assert.equal(isPhoneNumber([prefix, '2345', '6789']), true, prefix);
      assert.equal(isPhoneNumber([prefix, '234', '5678']), true, prefix);
    }
    for (const prefix of [
      '031',
      '032',
      '033',
      '041',
      '042',
      '043',
      '044',
      '051',
      '052',
      '053',
      '054',
      '055',
      '061',
      '062',
      '063',
      '064',
      '070',
    ]) {
      assert.equal(isPhoneNumber([prefix, '234', '5678']), true, prefix);
      assert.equal(isPhoneNumber([prefix, '2345', '6789']), true, prefix);
    }
    assert.equal(isPhoneNumber(['02', '123', '4567']), true);
    assert.equal(isPhoneNumber(['02', '1234', '5678']), true);
  });

  it('refuses other prefixes, representative numbers and 080', () => {
    for (const groups of [
      ['012', '2345', '6789'],
      ['015', '2345', '6789'],
      ['034', '234', '5678'],
      ['045', '234', '5678'],
      ['056', '234', '5678'],
      ['065', '234', '5678'],
      ['071', '234', '5678'],
      ['080', '123', '4567'],
      ['1588', '1234'],
      ['1644', '1234'],
      ['1899', '1234'],
    ]) {
      assert.equal(isPhoneNumber(groups), false, groups.join('-'));
    }
  });

  it('wants the group boundaries where the number has them', () => {
    assert.equal(isPhoneNumber(['01012345678']), true);
    assert.equal(isPhoneNumber(['010', '12345678']), true);
    assert.equal(isPhoneNumber(['0101234', '5678']), true);
    assert.equal(isPhoneNumber(['0101', '234', '5678']), false);
    assert.equal(isPhoneNumber(['010', '12', '345678']), false);
    assert.equal(isPhoneNumber(['010', '123', '45678']), false); // 3 then 5: not 3–4 then 4
  });
});

describe('findPhones', () => {
  it('finds mobile numbers with hyphens, dots, spaces or nothing', () => {
    assert.deepEqual(found('연락처 010-1234-5678 입니다'), ['010-1234-5678']);
    assert.deepEqual(found('010.1234.5678'), ['010.1234.5678']);
    assert.deepEqual(found('010 1234 5678로 전화'), ['010 1234 5678']);
    assert.deepEqual(found('번호는01012345678이에요'), ['01012345678']);
    assert.deepEqual(found('011-234-5678'), ['011-234-5678']);
  });

  it('finds landlines and 070', () => {
    assert.deepEqual(found('대표 02-123-4567'), ['02-123-4567']);
    assert.deepEqual(found('(본사) 02-1234-5678'), ['02-1234-5678']);
    assert.deepEqual(found('부산 051-123-4567'), ['051-123-4567']);
    assert.deepEqual(found('제주 064 712 3456'), ['064 712 3456']);
    assert.deepEqual(found('인터넷전화 070-1234-5678'), ['070-1234-5678']);
  });

  it('finds the +82 form, with or without separators', () => {
    assert.deepEqual(found('국제 +82 10-2345-6789'), ['+82 10-2345-6789']);
    assert.deepEqual(found('+82-10-2345-6789'), ['+82-10-2345-6789']);
    assert.deepEqual(found('+821023456789'), ['+821023456789']);
    assert.deepEqual(found('+82 2 123 4567'), ['+82 2 123 4567']);
    assert.deepEqual(found('+82.31.123.4567'), ['+82.31.123.4567']);
  });

  it('counts full-width digits', () => {
    assert.deepEqual(found('０１０－１２３４－５６７８'), ['010-1234-5678']);
  });

  it('passes representative numbers, 080 numbers and other numbers', () => {
    assert.deepEqual(found('고객센터 1588-1234'), []);
    assert.deepEqual(found('1644-1234, 1899-0000'), []);
    assert.deepEqual(found('수신자부담 080-123-4567'), []);
    assert.deepEqual(found('2024-01-15'), []);
    assert.deepEqual(found('버전 10.1.2'), []);
    assert.deepEqual(found('012-345-6789'), []);
  });

  it('never matches inside a longer run of digits or hyphenated number', () => {
    assert.deepEqual(found('9010-1234-5678'), []);
    assert.deepEqual(found('010-1234-56789'), []);
    assert.deepEqual(found('1-010-1234-5678'), []);
    assert.deepEqual(found('010-1234-5678-1'), []);
    assert.deepEqual(found('801012345678'), []);
  });

  it('finds two numbers side by side', () => {
    assert.deepEqual(found('010-1234-5678, 02-987-6543'), ['010-1234-5678', '02-987-6543']);
    assert.deepEqual(found('010-1234-5678 010-8765-4321'), ['010-1234-5678', '010-8765-4321']);
  });
});
