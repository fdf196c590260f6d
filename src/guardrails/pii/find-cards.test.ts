import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nfkcWithOffsets } from '../text/mapped-text.ts';
import { digitRuns, type Span } from './digit-runs.ts';
import { findCards, isCardNumber, luhnValid } from './find-cards.ts';

function found(text: string): string[] {
  const normal = nfkcWithOffsets(text).text;
  const spans: Span[] = [];
  findCards(digitRuns(normal), spans);
  return spans.map((span) => normal.slice(span.start, span.end));
}

/** The Luhn check digit that completes a number. */
function withCheckDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit += 1)
    if (luhnValid(`${body}${digit}`)) return `${body}${digit}`;
  throw new Error('no check digit');
}

describe('luhnValid', () => {
  it('accepts the card networks’ test numbers and refuses a changed digit', () => {
    for (const number of [
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '4012888888881881',
      '3530111333300000',
    ]) {
      assert.equal(luhnValid(number), true, number);
      const changed = `${number.slice(0, -1)}${(Number(number.at(-1)) + 1) % 10}`;
      assert.equal(luhnValid(changed), false, changed);
    }
  });
});

describe('isCardNumber', () => {
  it('wants 13–19 digits, not all one digit', () => {
    assert.equal(isCardNumber('0000000000000000'), false); // Luhn-valid, but all zeros
    assert.equal(isCardNumber(withCheckDigit('411111111111')), true); // 13
    assert.equal(isCardNumber(withCheckDigit('411111111111111111')), true); // 19
    assert.equal(isCardNumber(withCheckDigit('41111111111')), false); // 12
    assert.equal(isCardNumber(withCheckDigit('411111111111111111111')), false); // 22
  });
});

describe('findCards', () => {
  it('finds contiguous, 4-4-4-4 with spaces or hyphens, and 4-6-5 numbers', () => {
    assert.deepEqual(found('카드 4111111111111111 로 결제'), ['4111111111111111']);
    assert.deepEqual(found('카드번호 4111 1111 1111 1111입니다'), ['4111 1111 1111 1111']);
    assert.deepEqual(found('5555-5555-5555-4444'), ['5555-5555-5555-4444']);
    assert.deepEqual(found('아멕스 3782 822463 10005'), ['3782 822463 10005']);
    assert.deepEqual(found('3782-822463-10005'), ['3782-822463-10005']);
  });

  it('takes a shorter last group (13–19 digits)', () => {
    const thirteen = withCheckDigit('411111111111');
    assert.deepEqual(
      found(
        `${thirteen.slice(0, 4)} ${thirteen.slice(4, 8)} ${thirteen.slice(8, 12)} ${thirteen.slice(12)}`,
      ),
      [
        `${thirteen.slice(0, 4)} ${thirteen.slice(4, 8)} ${thirteen.slice(8, 12)} ${thirteen.slice(12)}`,
      ],
    );
    const nineteen = withCheckDigit('622202000000000000');
    const grouped = nineteen.match(/.{1,4}/g)?.join(' ') as string;
    assert.deepEqual(found(grouped), [grouped]);
  });

  it('counts full-width digits (NFKC)', () => {
    assert.deepEqual(found('카드 ４１１１ １１１１ １１１１ １１１１'), ['4111 1111 1111 1111']);
    assert.deepEqual(found('４１１１１１１１１１１１１１１１'), ['4111111111111111']);
  });

  it('passes a number with a wrong check digit', () => {
    assert.deepEqual(found('4111 1111 1111 1112'), []);
    assert.deepEqual(found('주문번호 1234567812345678'), []);
  });

  it('passes numbers all of one digit and other groupings', () => {
    assert.deepEqual(found('0000 0000 0000 0000'), []);
    assert.deepEqual(found('41111 11111 111111'), []);
    assert.deepEqual(found('411 1111 1111 11111'), []);
    assert.deepEqual(found('4111  1111  1111  1111'), []); // double spaces
    assert.deepEqual(found('4111.1111.1111.1111'), []); // dots are no card separator
  });

  it('never matches inside a longer run of digits or a longer hyphenated number', () => {
    assert.deepEqual(found('94111111111111111'), []); // 17 digits, Luhn-invalid whole
    assert.deepEqual(found('1-4111-1111-1111-1111'), []);
    assert.deepEqual(found('4111-1111-1111-1111-9'), []);
  });

  it('finds two cards in a sentence', () => {
    assert.deepEqual(found('첫 카드 4111 1111 1111 1111, 둘째 5555-5555-5555-4444.'), [
      '4111 1111 1111 1111',
      '5555-5555-5555-4444',
    ]);
  });
});
