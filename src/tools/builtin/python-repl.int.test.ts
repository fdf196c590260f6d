import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import { createPythonTool } from './python-repl.ts';

const env = createToolEnvironment({ dataDir: '/nonexistent' });

describe('python_repl', () => {
  const python = createPythonTool();
  const hasty = createPythonTool({ timeoutMs: 1_500 });
  const through = (registry: ToolRegistry) => async (code: string) => {
    const executor = new ToolExecutor(registry, { env });
    return executor.execute({ id: 'call-1', name: 'python_repl', args: { code } });
  };
  const run = through(new ToolRegistry().register(python));
  const runHasty = through(new ToolRegistry().register(hasty));

  // Loading Pyodide takes seconds, which would eat into the first call's time limit.
  before(async (context) => {
    const started = performance.now();
    await python.warmUp();
    context.diagnostic(`cold start: ${Math.round(performance.now() - started)} ms`);
  });
  after(() => Promise.all([python.close(), hasty.close()]));

  it('returns the value of the last expression, and stdout and stderr when written', async () => {
    assert.equal((await run('sum(range(10))')).content, 'result: 45');
    assert.equal((await run('x = 2\nx ** 10')).content, 'result: 1024');
    assert.equal(
      (await run('import sys\nprint("hello")\nprint("careful", file=sys.stderr)\n"done"')).content,
      "stdout:\nhello\n\nstderr:\ncareful\n\nresult: 'done'",
    );
    assert.match((await run('value = 3')).content, /^\(no output/);
  });

  it('answers warm calls quickly', async (context) => {
    const timings: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const started = performance.now();
      assert.equal((await run(`${index} * 3`)).content, `result: ${index * 3}`);
      timings.push(Math.round(performance.now() - started));
    }
    context.diagnostic(`warm calls: ${timings.join(', ')} ms`);
    assert.ok(Math.max(...timings) < 1_000, `warm calls took ${timings.join(', ')} ms`);
  });

  it('reports an exception with its type, message and the lines of the user code', async () => {
    const result = await run('def divide(a, b):\n    return a / b\n\ndivide(1, 0)');
    assert.equal(result.isError, true);
    assert.equal(
      result.content,
      'Error: ZeroDivisionError: division by zero — at line 4: divide(1, 0) → line 2, in divide: return a / b',
    );
    assert.doesNotMatch(result.content, /pyodide|sandbox\.py|_base\.py/);
    assert.equal(
      (await run('import json\njson.loads("{")')).content,
      'Error: json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: ' +
        'line 1 column 2 (char 1) — at line 2: json.loads("{")',
    );
    assert.match(
      (await run('print("a")\nif True print("b")')).content,
      /^Error: SyntaxError: [^—]+ — at line 2: if True print\("b"\)$/,
    );
  });

  it('starts every call with a fresh namespace', async () => {
    await run('secret = 42\ndef helper(): return 1');
    assert.match((await run('secret')).content, /^Error: NameError: name 'secret' is not defined/);
    assert.match((await run('helper()')).content, /^Error: NameError/);
  });

  it('puts patched modules, builtins and files back before the next call', async () => {
    await run(
      'import math, builtins, os\nmath.pi = 3\nbuiltins.len = lambda x: -1\n' +
        'os.environ["LEAK"] = "1"\nopen("/tmp/left-behind.txt", "w").write("x")\nos.chdir("/tmp")',
    );
    assert.equal(
      (
        await run(
          'import math, os\n(math.pi, len("abc"), "LEAK" in os.environ, ' +
            'os.path.exists("/tmp/left-behind.txt"), os.getcwd())',
        )
      ).content,
      "result: (3.141592653589793, 3, False, False, '/home/pyodide')",
    );
  });

  it('offers the standard library and says what is not there', async () => {
    assert.equal(
      (
        await run(
          'import statistics, fractions\nstatistics.mean([1, 2, 4]), fractions.Fraction(1, 3) * 3',
        )
      ).content,
      'result: (2.3333333333333335, Fraction(1, 1))',
    );
    assert.match((await run('import numpy')).content, /^Error: ModuleNotFoundError/);
    assert.match((await run('input()')).content, /^Error: EOFError/);
    assert.match(
      (await run('import asyncio\nasync def main(): return 1\nasyncio.run(main())')).content,
      /^Error: RuntimeError: asyncio event loops are not available/,
    );
  });

  it('caps a huge print inside the worker and says how much was cut', async () => {
    const result = await run('print("x" * 10**7)');
    assert.equal(result.isError, false);
    assert.ok(result.content.length <= 10_300, `${result.content.length} characters`);
    assert.match(result.content, /…\[stdout cut: 9990001 more characters\]$/);
  });

  it('caps a million prints within the time limit', async () => {
    const result = await run('for i in range(10**6):\n    print(i)');
    assert.equal(result.isError, false, result.content);
    assert.match(result.content, /^stdout:\n0\n1\n2\n/);
    assert.match(result.content, /…\[stdout cut: \d+ more characters\]$/);
  });

  it('times out a runaway call through the executor, and the next call works', async (context) => {
    const started = performance.now();
    await hasty.warmUp();
    context.diagnostic(
      `second interpreter (from the memory snapshot): ${Math.round(performance.now() - started)} ms`,
    );
    const result = await runHasty('while True:\n    pass');
    assert.equal(result.content, 'Error: python_repl timed out after 1.5 s');
    assert.ok(result.durationMs < 2_500, `${result.durationMs} ms`);
    assert.equal((await runHasty('"alive"')).content, "result: 'alive'");
  });

  it('refuses code longer than 20 000 characters', async () => {
    const result = await run(`x = 1\n${'#'.repeat(20_000)}`);
    assert.match(
      result.content,
      /^Error: invalid arguments for python_repl: code: code is limited to 20000/,
    );
  });

  it('never interleaves concurrent calls inside one interpreter', async () => {
    const codes = Array.from(
      { length: 6 },
      (_, index) =>
        `for step in range(3):\n    print(${index}, step)\n    sum(range(10**5))\n` +
        `print("end ${index}", end="")`,
    );
    const results = await Promise.all(codes.map((code) => run(code)));
    results.forEach((result, index) => {
      assert.equal(result.content, `stdout:\n${index} 0\n${index} 1\n${index} 2\nend ${index}`);
    });
  });
});
