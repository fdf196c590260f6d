import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createToolEnvironment } from '../../environment.ts';
import { PythonRunError } from '../../errors/python-run-error.ts';
import { createPythonTool } from '../python-repl.ts';

const env = createToolEnvironment({ dataDir: '/nonexistent' });
const timeoutMs = 2_000;
const graceMs = 500;

// The abuse cases: every wall of the sandbox, tried the way a model (or a person behind
// one) would try it. Calls go straight to `execute`, so the tool's own limits are measured.
describe('python_repl sandbox', () => {
  process.env.YEOUL_PYTHON_TEST_SECRET = 'do-not-leak';
  const python = createPythonTool({ timeoutMs, memoryLimitMb: 128, interruptGraceMs: graceMs });
  const call = async (code: string, signal = AbortSignal.timeout(30_000)) => {
    const started = performance.now();
    try {
      const text = String(await python.execute({ code }, { signal, env, callId: 'abuse' }));
      return { ok: true, text, code: '', ms: performance.now() - started };
    } catch (error) {
      assert.ok(error instanceof PythonRunError, String(error));
      return { ok: false, text: error.message, code: error.code, ms: performance.now() - started };
    }
  };
  const assertAlive = async () => assert.equal((await call('6 * 7')).text, 'result: 42');

  before(() => python.warmUp());
  after(() => {
    delete process.env.YEOUL_PYTHON_TEST_SECRET;
    return python.close();
  });

  describe('network', () => {
    let connections = 0;
    const server = createServer((_request, response) => response.end('reached'));
    server.on('connection', () => {
      connections += 1;
    });
    let port = 0;
    before(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('refuses every way out, and the local server sees no connection', async () => {
      const attempts: Array<[code: string, error: RegExp]> = [
        [
          `import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}", timeout=1)`,
          /URLError.*network access is disabled/,
        ],
        [
          `import http.client\nhttp.client.HTTPConnection("127.0.0.1", ${port}, timeout=1).request("GET", "/")`,
          /OSError.*network access is disabled/,
        ],
        [
          `import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=1)`,
          /OSError.*network access is disabled/,
        ],
        [
          `import _socket\n_socket.socket().connect(("127.0.0.1", ${port}))`,
          /OSError: \[Errno \d+\] Network unreachable/,
        ],
        [
          `import _socket\ns = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)\ns.sendto(b"x", ("127.0.0.1", ${port}))`,
          /OSError/,
        ],
        ['from js import fetch', /ModuleNotFoundError: module 'js' is not available/],
        ['import pyodide.http', /ModuleNotFoundError: module 'pyodide.http' is not available/],
        [
          `import sys\nsys.meta_path.pop(0)\nimport pyodide.http\npyodide.http.open_url("http://127.0.0.1:${port}")`,
          /Error/,
        ],
        [
          `import sys\nsys.meta_path.pop(0)\nfrom js import fetch`,
          /ImportError|ModuleNotFoundError/,
        ],
      ];
      for (const [code, error] of attempts) {
        const outcome = await call(code);
        assert.equal(outcome.ok, false, `${code} → ${outcome.text}`);
        assert.match(outcome.text, error, code);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(connections, 0);
    });
  });

  describe('JavaScript', () => {
    it('gives Python no way to turn strings into JavaScript code', async () => {
      const attempt = await call(
        'from pyodide.ffi import to_js\nto_js({}).constructor.constructor("return process.env")()',
      );
      assert.match(attempt.text, /code generation from strings is disabled/);
      for (const module of ['js', 'pyodide_js']) {
        const outcome = await call(`import sys\nsys.meta_path.pop(0)\nimport ${module}`);
        assert.match(outcome.text, /^ModuleNotFoundError/, module);
      }
    });

    it('replaces the interpreter when ctypes reaches for eval, and goes on', async () => {
      const outcome = await call(
        'import sys\nsys.meta_path.pop(0)\nimport ctypes\n' +
          'ctypes.CDLL(None).emscripten_run_script(b"globalThis.pwned = process.env")',
      );
      assert.equal(outcome.code, 'python_crashed');
      assert.match(outcome.text, /eval is not defined/);
      await assertAlive();
    });
  });

  describe('files', () => {
    it('shows only the in-memory file system, never the host', async () => {
      assert.match((await call('open("/etc/passwd").read()')).text, /^FileNotFoundError/);
      assert.match(
        (await call(`import os\nos.listdir(${JSON.stringify(process.cwd())})`)).text,
        /^FileNotFoundError/,
      );
      assert.equal(
        (await call('import os\nsorted(os.listdir("/"))')).text,
        "result: ['dev', 'home', 'lib', 'proc', 'tmp']",
      );
      assert.equal(
        (await call('import os\n"YEOUL_PYTHON_TEST_SECRET" in os.environ')).text,
        'result: False',
      );
    });

    it('writes only to the in-memory file system, and forgets the files after the call', async () => {
      const path = `/tmp/yeoul-python-probe-${process.pid}.txt`;
      const written = await call(`open("${path}", "w").write("inside")\nopen("${path}").read()`);
      assert.equal(written.text, "result: 'inside'");
      assert.equal(existsSync(path), false);
      assert.equal((await call(`import os\nos.path.exists("${path}")`)).text, 'result: False');
    });

    it('replaces the interpreter when a call damages its standard library', async () => {
      await call('open("/lib/python314.zip", "wb").write(b"garbage")');
      assert.equal(
        (await call('import colorsys\ncolorsys.rgb_to_hsv(1, 0, 0)')).text,
        'result: (0.0, 1.0, 1)',
      );
    });
  });

  describe('memory', () => {
    it('ends allocation bombs in a clear error, and the next call works', async (context) => {
      const rssBefore = process.memoryUsage().rss;
      const bombs: Array<[code: string, error: RegExp]> = [
        ['x = "a" * 10**10', /^(OverflowError|MemoryError)/],
        ['x = "a" * 10**9', /^MemoryError: .*128 MiB/],
        ['x = [0] * 10**9', /^MemoryError/],
        ['chunks = []\nwhile True:\n    chunks.append(bytearray(10**6))', /^MemoryError/],
        [
          'd = {}\ni = 0\nwhile True:\n    d[i] = str(i) * 10\n    i += 1',
          /^MemoryError|timed out/,
        ],
      ];
      for (const [code, error] of bombs) {
        const outcome = await call(code);
        assert.equal(outcome.ok, false, code);
        assert.match(outcome.text, error, code);
        await assertAlive();
      }
      const grownMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      context.diagnostic(`host RSS grew by ${Math.round(grownMb)} MiB`);
      assert.ok(grownMb < 600, `host RSS grew by ${grownMb} MiB`);
    });

    it('ends deep recursion in a RecursionError', async () => {
      const outcome = await call('def deeper(n):\n    return deeper(n + 1)\ndeeper(0)');
      assert.match(outcome.text, /^RecursionError/);
      await assertAlive();
    });
  });

  describe('time', () => {
    it('interrupts an endless loop at the time limit', async () => {
      const outcome = await call('while True:\n    pass');
      assert.equal(outcome.code, 'python_timeout');
      assert.match(outcome.text, /timed out after 2 s/);
      // Well under the minute the code would run for: slack for a busy machine.
      assert.ok(outcome.ms < timeoutMs + 5_000, `stopped after ${outcome.ms} ms`);
      await assertAlive();
    });

    it('terminates and replaces an interpreter whose code ignores the interrupt', async (context) => {
      const stubborn = [
        'while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass',
        'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass',
      ];
      for (const code of stubborn) {
        const outcome = await call(code);
        assert.equal(outcome.code, 'python_timeout', outcome.text);
        assert.ok(outcome.ms < timeoutMs + graceMs + 5_000, `stopped after ${outcome.ms} ms`);
        const started = performance.now();
        await assertAlive();
        context.diagnostic(`next call after a kill: ${Math.round(performance.now() - started)} ms`);
      }
    });

    it('keeps answering other calls while one runs away', async () => {
      // A limit far off, so that however slowly a busy machine starts the next interpreter,
      // the runaway is still running when the others are answered; then it is cancelled.
      const patient = createPythonTool({ timeoutMs: 60_000, memoryLimitMb: 128 });
      try {
        await patient.warmUp();
        const run = (code: string, signal: AbortSignal) =>
          patient
            .execute({ code }, { signal, env, callId: 'patient' })
            .then(String, (error: unknown) => (error as PythonRunError).code);
        const controller = new AbortController();
        let runawayEnded = false;
        const runaway = run('while True:\n    pass', controller.signal).finally(() => {
          runawayEnded = true;
        });
        const others = await Promise.all(
          ['1', '2', '3'].map((code) => run(code, AbortSignal.timeout(30_000))),
        );
        assert.equal(runawayEnded, false, 'the other calls waited for the runaway one');
        assert.deepEqual(others, ['result: 1', 'result: 2', 'result: 3']);
        controller.abort();
        assert.equal(await runaway, 'python_cancelled');
      } finally {
        await patient.close();
      }
    });

    it('stops a sleeping call at the time limit', async () => {
      const outcome = await call('import time\ntime.sleep(60)');
      assert.equal(outcome.code, 'python_timeout');
      assert.ok(outcome.ms < timeoutMs + graceMs + 5_000, `stopped after ${outcome.ms} ms`);
      await assertAlive();
    });

    it('stops a call when the caller cancels it', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const outcome = await call('while True:\n    pass', controller.signal);
      assert.equal(outcome.code, 'python_cancelled');
      assert.ok(outcome.ms < 5_000, `stopped after ${outcome.ms} ms`);
      await assertAlive();
    });
  });
});
