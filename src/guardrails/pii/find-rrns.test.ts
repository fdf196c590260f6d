import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digitRuns, type Span } from './digit-runs.ts';
import { findRrns, isRrn, rrnCheckDigit } from './find-rrns.ts';

/** The check digit by the published rule, written out again here: (11 − Σ wᵢdᵢ mod 11) mod 10. */
function checkDigit(first12: string): number {
  const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const sum = [...first12].reduce(
    (total, digit, index) => total + Number(digit) * (weights[index] as number),
    0,
  );
  return (11 - (sum % 11)) % 10;
}

/** A 주민등록번호 with its real check digit. */
function rrn(first12: string): string {
  return `${first12}${checkDigit(first12)}`;
}

/** The same number with a wrong check digit. */
function badRrn(first12: string): string {
  return `${first12}${(checkDigit(first12) + 1) % 10}`;
}

function found(text: string, checksum = true): string[] {
  const spans: Span[] = [];
  findRrns(digitRuns(text), checksum, spans);
  return spans.map((span) => text.slice(span.start, span.end));
}

describe('rrnCheckDigit', () => {
  it('computes the published check digits', () => {
    // 900101-123456 → Σ = 124, 124 mod 11 = 3, 11 − 3 = 8.
    assert.equal(rrnCheckDigit('900101123456'), 8);
    assert.equal(rrnCheckDigit('850315212345'), checkDigit('850315212345'));
    for (const first12 of ['000229312345', '991231298765', '010101400000', '771120155555']) {
      assert.equal(rrnCheckDigit(first12), checkDigit(first12));
    }
  });

  it('takes 10 as 0 and 11 as 1 (the mod 10)', () => {
    // Find numbers whose 11 − (Σ mod 11) is 10 and 11, and check both wrap.
    const wrapped = new Set<number>();
    for (let serial = 0; serial < 2000 && wrapped.size < 2; serial += 1) {
      const first12 = `900101${String(1_000_000 + serial).slice(1)}`.slice(0, 12);
      const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
      const sum = [...first12].reduce(
        (total, digit, index) => total + Number(digit) * (weights[index] as number),
        0,
      );
      const raw = 11 - (sum % 11);
      if (raw >= 10) {
        assert.equal(rrnCheckDigit(first12), raw - 10);
        wrapped.add(raw);
      }
    }
    assert.deepEqual([...wrapped].sort(), [10, 11]);
  });
});

describe('isRrn', () => {
  it('takes a real date, a gender digit 1–4 and a valid check digit', () => {
    assert.equal(isRrn(rrn('900101123456'), true), true);
    assert.equal(isRrn(rrn('020505312345'), true), true); // born 2002, G 3
    assert.equal(isRrn(rrn('020505412345'), true), true); // born 2002, G 4
    assert.equal(isRrn(rrn('851231212345'), true), true);
  });

  it('refuses a wrong check digit', () => {
    assert.equal(isRrn(badRrn('900101123456'), true), false);
    assert.equal(isRrn('9001011234567', true), false);
  });

  it('refuses dates that do not exist', () => {
    assert.equal(isRrn(rrn('901301123456'), true), false); // month 13
    assert.equal(isRrn(rrn('900001123456'), true), false); // month 0
    assert.equal(isRrn(rrn('900132123456'), true), false); // day 32
    assert.equal(isRrn(rrn('900431123456'), true), false); // 31 April
    assert.equal(isRrn(rrn('900100123456'), true), false); // day 0
  });

  it('knows leap years: 29 February 2000 and 1996, not 1900 or 2001', () => {
    assert.equal(isRrn(rrn('000229312345'), true), true); // 2000 is a leap year
    assert.equal(isRrn(rrn('960229112345'), true), true);
    assert.equal(isRrn(rrn('000229112345'), true), false); // 1900 is not
    assert.equal(isRrn(rrn('010229312345'), true), false); // 2001 is not
  });

  it('refuses gender digits other than 1–4 unless the checksum is off', () => {
    for (const gender of ['0', '5', '6', '7', '8', '9']) {
      assert.equal(isRrn(rrn(`900101${gender}23456`), true), false, gender);
    }
    for (const gender of ['5', '6', '7', '8']) {
      assert.equal(isRrn(badRrn(`900101${gender}23456`), false), true, gender);
    }
    assert.equal(isRrn(badRrn('900101923456'), false), false);
    assert.equal(isRrn(badRrn('900101023456'), false), false);
  });

  it('without the checksum, still wants a real date', () => {
    assert.equal(isRrn('9013011234567', false), false);
    assert.equal(isRrn('2010151234560', false), true); // issued since October 2020: no check digit
  });
});

describe('findRrns', () => {
  const valid = rrn('900101123456');
  const [front, back] = [valid.slice(0, 6), valid.slice(6)];

  it('finds the hyphen, space and contiguous forms', () => {
    assert.deepEqual(found(`주민번호는 ${front}-${back}입니다`), [`${front}-${back}`]);
    assert.deepEqual(found(`주민번호 ${front} ${back}`), [`${front} ${back}`]);
    assert.deepEqual(found(`번호:${valid}.`), [valid]);
  });

  it('passes a random 13-digit number and a wrong check digit', () => {
    assert.deepEqual(found('주문번호 1234567890123 확인'), []);
    assert.deepEqual(found(`주민번호 ${badRrn('900101123456')}`), []);
  });

  it('never matches inside a longer run of digits', () => {
    assert.deepEqual(found(`1${valid}`), []);
    assert.deepEqual(found(`${valid}0`), []);
    assert.deepEqual(found(`9${front}-${back}`), []);
    assert.deepEqual(found(`${front}-${back}1`), []);
  });

  it('refuses other separators and parts of longer hyphenated numbers', () => {
    assert.deepEqual(found(`${front}.${back}`), []);
    assert.deepEqual(found(`${front}  ${back}`), []);
    assert.deepEqual(found(`${front}_${back}`), []);
    assert.deepEqual(found(`12-${front}-${back}`), []);
    assert.deepEqual(found(`${front}-${back}-3`), []);
  });

  it('finds several in one text', () => {
    const other = rrn('851231212345');
    assert.deepEqual(found(`${valid}, ${other.slice(0, 6)}-${other.slice(6)}`), [
      valid,
      `${other.slice(0, 6)}-${other.slice(6)}`,
    ]);
  });

  it('with checksum false, finds numbers issued since October 2020 and 외국인등록번호', () => {
    assert.deepEqual(found('201015-3123450'), []);
    assert.deepEqual(found('201015-3123450', false), ['201015-3123450']);
    assert.deepEqual(found('외국인등록번호 900101-5123456', false), ['900101-5123456']);
  });
});
