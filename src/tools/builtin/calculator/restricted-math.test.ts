import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRestrictedMath } from './restricted-math.ts';

const math = createRestrictedMath();
const resultOf = (expression: string) => {
  const outcome = math.evaluate(expression);
  assert.ok(outcome.ok, `${expression}: ${outcome.ok ? '' : outcome.problem}`);
  return outcome.result;
};
const problemOf = (expression: string) => {
  const outcome = math.evaluate(expression);
  assert.equal(outcome.ok, false, `${expression} should fail`);
  return outcome.ok ? '' : outcome.problem;
};

describe('restricted mathjs', () => {
  it('evaluates arithmetic with 14 significant digits and plain notation', () => {
    assert.equal(resultOf('123 * 456'), '56088');
    assert.equal(resultOf('100000000 * 1.2'), '120000000');
    assert.equal(resultOf('0.1 + 0.2'), '0.3');
    assert.equal(resultOf('1 / 3'), '0.33333333333333');
    assert.equal(resultOf('2^53'), '9.007199254741e+15');
    assert.equal(resultOf('(2 + 3) * 4 - 10 / 5'), '18');
  });

  it('evaluates functions, units, matrices, complex numbers and big numbers', () => {
    assert.equal(resultOf('sqrt(16) + sin(pi / 2)'), '5');
    assert.equal(resultOf('5 km to m'), '5000 m');
    assert.equal(resultOf('[1, 2; 3, 4] * 2'), '[[2, 4], [6, 8]]');
    assert.equal(resultOf('det([1, 2; 3, 4])'), '-2');
    assert.equal(resultOf('sqrt(-4)'), '2i');
    assert.equal(resultOf('factorial(bignumber(30))'), '2.6525285981219e+32');
    assert.equal(resultOf('fraction(1, 3) + fraction(1, 6)'), '1/2');
  });

  it('keeps variables and functions to one evaluation', () => {
    assert.equal(resultOf('x = 3; f(y) = y^2; f(x) + 1'), '10');
    assert.match(problemOf('x + 1'), /Undefined symbol x/);
  });

  it('explains why a bad expression cannot be evaluated', () => {
    assert.equal(problemOf('abc'), 'Undefined symbol abc');
    assert.match(problemOf('1/'), /Unexpected end of expression/);
    assert.match(problemOf('2 +* 3'), /Value expected/);
    assert.match(problemOf('sqrt()'), /Too few arguments/);
    assert.match(problemOf('f(x) = x^2'), /defines a function but never calls it/);
    assert.match(problemOf('x = 3;'), /nothing to show/);
  });

  it('refuses results that overflow instead of answering Infinity or NaN', () => {
    assert.match(problemOf('factorial(100000)'), /result is infinite/);
    assert.match(problemOf('factorial(1e6)'), /result is infinite/);
    assert.match(problemOf('9^9^9^9'), /result is infinite/);
    assert.match(
      problemOf('bignumber(9)^bignumber(9)^bignumber(9)^bignumber(9)'),
      /result is infinite/,
    );
    assert.match(problemOf('1 / 0'), /division by zero/);
    assert.match(problemOf('0 / 0'), /not a number/);
    assert.match(problemOf('x = 1; 1 / 0'), /result is infinite/);
  });

  it('refuses the functions that parse, compile or change mathjs', () => {
    for (const expression of [
      'import({}, {})',
      'createUnit("foo")',
      'evaluate("1")',
      'parse("1")',
      'compile("1")',
      'simplify("x")',
      'derivative("x^2", "x")',
      'resolve("x", {})',
      'rationalize("1/x")',
      'reviver()',
      'chain(3)',
      'parser()',
      'config({precision: 1e6})',
      'typed("f", {})',
      'help(sin)',
      'e = evaluate; e("1")',
    ]) {
      assert.match(problemOf(expression), /is not available in the calculator/, expression);
    }
  });

  it('never reaches JavaScript internals through properties, constructors or globals', () => {
    for (const expression of [
      '[].constructor.constructor("return process")()',
      '[1].constructor.constructor("return process")()',
      'cos.constructor("return process")()',
      'f(x) = x; f.constructor',
      'a = {}; a.__proto__',
      'a = {}; a["constructor"]',
      'sin["constructor"]("return this")()',
      'a = {b: 1}; a[concat("constr", "uctor")]',
      'sin.prototype',
      'f(x) = x; f.call',
      'process',
      'globalThis',
      'require("fs")',
      'Function("return process")()',
      'eval("1")',
    ]) {
      const problem = problemOf(expression);
      assert.match(
        problem,
        /not allowed|No access|Undefined (symbol|function)|Value expected|not available/,
        `${expression}: ${problem}`,
      );
    }
  });

  it('cuts a very long result', () => {
    const result = resultOf('zeros(50, 50)');
    assert.ok(result.length < 2_100);
    assert.match(result, /… \(\d+ more characters\)$/);
  });
});
