import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { ToolDefinition } from '../types.ts';
import { calculatorTool, createCalculatorTool } from './calculator.ts';

const call = (args: unknown, tool: ToolDefinition<{ expression: string }> = calculatorTool) =>
  new ToolExecutor(new ToolRegistry().register(tool), {
    env: createToolEnvironment({ dataDir: '/nonexistent' }),
  }).execute({ id: 'call-1', name: 'calculator', args });

describe('calculator', () => {
  it('warms up: its thread is started and answering before the first call', async () => {
    const tool = createCalculatorTool();
    await new ToolRegistry().register(tool).warmUp(['calculator']);
    assert.equal((await call({ expression: '2 + 3' }, tool)).content, '2 + 3 = 5');
  });

  it('answers plain arithmetic without its thread, and anything else in it', async () => {
    // A thread this small cannot even load mathjs: only what skips it answers.
    assert.throws(() => createCalculatorTool({ memoryLimitMb: 2 }), /at least 4 MiB \(got 2\)/);
    const starved = createCalculatorTool({ memoryLimitMb: 4 });
    assert.equal(
      (await call({ expression: '(12 + 3) * 4 / 8' }, starved)).content,
      '(12 + 3) * 4 / 8 = 7.5',
    );
    assert.match(
      (await call({ expression: 'sqrt(16)' }, starved)).content,
      /^Error: could not evaluate "sqrt\(16\)": the calculation needed more than 4 MiB/,
    );
  });

  it('answers "expression = result"', async () => {
    const result = await call({ expression: '123 * 456' });
    assert.deepEqual([result.isError, result.content], [false, '123 * 456 = 56088']);
    assert.equal(
      (await call({ expression: '100000000 * 1.2' })).content,
      '100000000 * 1.2 = 120000000',
    );
    assert.equal((await call('{"expression": " sqrt(2)^2 "}')).content, 'sqrt(2)^2 = 2');
  });

  it('turns a bad expression into an error that says why', async () => {
    assert.equal(
      (await call({ expression: 'abc' })).content,
      'Error: could not evaluate "abc": Undefined symbol abc',
    );
    assert.match(
      (await call({ expression: '1/' })).content,
      /^Error: could not evaluate "1\/": Unexpected end/,
    );
    assert.match(
      (await call({ expression: 'factorial(1e6)' })).content,
      /^Error: could not evaluate .*infinite/,
    );
    assert.match(
      (await call({ expression: '9^9^9^9' })).content,
      /^Error: could not evaluate .*infinite/,
    );
  });

  it('refuses the abuse cases with clear one-line errors', async () => {
    for (const expression of [
      'import({}, {})',
      'createUnit("foo")',
      'evaluate("1")',
      'parse("1")',
      'simplify("x")',
      '[].constructor.constructor("return process")()',
      'cos.constructor("return process")()',
      'f(x)=x; f.constructor',
      'a = {}; a.__proto__',
    ]) {
      const result = await call({ expression });
      assert.equal(result.isError, true, expression);
      assert.match(result.content, /^Error: could not evaluate "/, expression);
      assert.doesNotMatch(result.content, /\n|at .*\.(ts|js):\d+/);
    }
  });

  it('refuses an empty or 10 000-character expression before evaluating it', async () => {
    assert.match(
      (await call({ expression: '   ' })).content,
      /^Error: invalid arguments .*the expression is empty/,
    );
    const long = await call({ expression: `${'1+'.repeat(5_000)}1` });
    assert.match(
      long.content,
      /^Error: invalid arguments for calculator: expression: expressions are limited to 500 characters/,
    );
  });

  it('stops a runaway calculation and stays usable', async () => {
    const tool = createCalculatorTool({ evaluationTimeoutMs: 300 });
    const result = await call({ expression: 'f(x) = x > 0 ? f(x-1) + f(x-1) : 1; f(40)' }, tool);
    assert.match(
      result.content,
      /^Error: could not evaluate .*took longer than 0.3 s and was stopped/,
    );
    assert.equal((await call({ expression: '6 * 7' }, tool)).content, '6 * 7 = 42');
  });

  it('answers concurrent calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => call({ expression: `${index} * 10` })),
    );
    assert.deepEqual(
      results.map((result) => result.content),
      Array.from({ length: 10 }, (_, index) => `${index} * 10 = ${index * 10}`),
    );
  });
});
