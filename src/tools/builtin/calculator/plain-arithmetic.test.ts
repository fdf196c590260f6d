import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../testing/internal/index.ts';
import { evaluatePlainArithmetic } from './plain-arithmetic.ts';
import { createRestrictedMath } from './restricted-math.ts';

const math = createRestrictedMath();

/** A random expression of the plain grammar, with spaces here and there. */
function plainExpression(next: () => number, depth = 0): string {
  const space = () => (next() < 0.3 ? ' ' : '');
  const roll = next();
  if (depth > 4 || roll < 0.35) {
    const whole = String(Math.floor(next() * 10 ** Math.floor(next() * 9)));
    const number = next() < 0.4 ? `${whole}.${String(Math.floor(next() * 10 ** 6))}` : whole;
    return next() < 0.15 ? `-${space()}${number}` : number;
  }
  if (roll < 0.5) return `(${space()}${plainExpression(next, depth + 1)}${space()})`;
  const operator = '+-*/'[Math.floor(next() * 4)] as string;
  const left = plainExpression(next, depth + 1);
  const right = plainExpression(next, depth + 1);
  return `${left}${space()}${operator}${space()}${right}`;
}

/** What mathjs answers for `expression`, as the calculator's thread would. */
function mathjs(expression: string): string | undefined {
  const outcome = math.evaluate(expression);
  return outcome.ok ? outcome.result : undefined;
}

describe('plain arithmetic', () => {
  it('answers exactly what mathjs answers, for thousands of generated expressions', () => {
    const next = seededRandom(20261208);
    let answered = 0;
    for (let index = 0; index < 5_000; index += 1) {
      const expression = plainExpression(next);
      const plain = evaluatePlainArithmetic(expression);
      if (plain === undefined) continue;
      answered += 1;
      assert.equal(plain, mathjs(expression), expression);
    }
    // Only non-finite results (a division by zero) and long literals are left to mathjs.
    assert.ok(answered > 4_000, `answered ${answered} of 5000`);
  });

  it('answers nothing mathjs refuses or reads otherwise, on random strings of its characters', () => {
    const next = seededRandom(7);
    const alphabet = '0123456789 .+-*/()e%x,';
    let answered = 0;
    for (let index = 0; index < 20_000; index += 1) {
      const length = 1 + Math.floor(next() * 12);
      let expression = '';
      for (let at = 0; at < length; at += 1) {
        expression += alphabet[Math.floor(next() * alphabet.length)];
      }
      const plain = evaluatePlainArithmetic(expression);
      if (plain === undefined) continue;
      answered += 1;
      assert.equal(plain, mathjs(expression), JSON.stringify(expression));
    }
    assert.ok(answered > 1_000, `answered ${answered} of 20000`);
  });

  it('formats as the calculator does and leaves everything else to mathjs', () => {
    const cases: Array<[string, string | undefined]> = [
      ['123 * 456', '56088'],
      ['0.1 + 0.2', '0.3'],
      ['1 / 3', '0.33333333333333'],
      ['-(2 - 5) * 4', '12'],
      ['2 - -3', '5'],
      ['99999999 * 99999999', '9.9999998e+15'],
      ['1 / 100000000', '1e-8'],
      ['0 * -1', '0'],
      ['((((7))))', '7'],
      ['1 / 0', undefined],
      ['0 / 0', undefined],
      ['2(3)', undefined],
      ['(2)(3)', undefined],
      ['2 3', undefined],
      ['2^10', undefined],
      ['sqrt(2)', undefined],
      ['5 km to mile', undefined],
      ['1e3', undefined],
      ['.5 + 1', undefined],
      ['1. + 1', undefined],
      ['50%', undefined],
      ['1,000 + 1', undefined],
      ['1234567890123456 + 1', undefined],
      ['', undefined],
      ['()', undefined],
      ['(1 + 2', undefined],
      ['1 +', undefined],
    ];
    for (const [expression, expected] of cases) {
      assert.equal(evaluatePlainArithmetic(expression), expected, expression);
      if (expected !== undefined) assert.equal(mathjs(expression), expected, expression);
    }
  });

  it('reads the longest expressions the tool takes, deep or long, in one pass', () => {
    const deep = `${'('.repeat(240)}1 + 2${')'.repeat(240)}`;
    assert.equal(evaluatePlainArithmetic(deep), '3');
    const long = Array.from({ length: 100 }, (_, index) => String(index)).join(' + ');
    assert.equal(evaluatePlainArithmetic(long), mathjs(long));
    assert.equal(evaluatePlainArithmetic(`${'-'.repeat(499)}1`), '-1');
  });
});
