import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runYeoul } from '../src/testing/internal/index.ts';
import { startTestServer, type TestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-eval-api-'));
let keyed: TestServer;
let open: TestServer;
before(async () => {
  keyed = await startTestServer(join(root, 'keyed'), { YEOUL_API_KEYS: 'alice-key,bob-key' });
  open = await startTestServer(join(root, 'open'));
});
after(async () => {
  await keyed?.server.close();
  await open?.server.close();
  rmSync(root, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = Record<string, any>;

async function call(
  server: TestServer,
  method: string,
  path: string,
  options: { key?: string; body?: unknown } = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${server.server.url}${path}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

async function finished(server: TestServer, id: string, key?: string): Promise<Json> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { body } = await call(server, 'GET', `/api/evals/${id}`, key ? { key } : {});
    if (body.status !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`run ${id} did not finish`);
}

describe('evaluations over HTTP', () => {
  it('refuses bad items, listing every problem', async () => {
    const { status, body } = await call(keyed, 'POST', '/api/evals', {
      key: 'alice-key',
      body: {
        items: [{ input: 'ok' }, { input: '' }, { input: 'x', expectedTool: ['calculator'] }],
        graph: 'nope',
        scorers: ['contains', 'vibes'],
      },
    });
    assert.equal(status, 400);
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message, /items\.1\.input: /);
    assert.match(
      body.error.message,
      /items\.2\.Unrecognized key: "expectedTool"|items\.2\..*expectedTool/,
    );
    assert.match(body.error.message, /graph: "nope" is not a chat graph/);
    assert.match(body.error.message, /unknown scorer "vibes"/);
  });

  it('runs items in the background (202), stores the run for its owner only', async () => {
    const started = await call(keyed, 'POST', '/api/evals', {
      key: 'alice-key',
      body: {
        name: 'api-run',
        items: [
          {
            id: 'calc',
            input: '123 * 456 계산해줘',
            expected: '56088',
            expectedTools: ['calculator'],
          },
          { id: 'wrong', input: '123 + 456은?', expected: '600' },
        ],
      },
    });
    assert.equal(started.status, 202);
    const run = await finished(keyed, started.body.id, 'alice-key');
    assert.equal(run.status, 'done');
    assert.equal(run.name, 'api-run');
    assert.equal(run.graph, 'chat');
    assert.deepEqual(run.summary, {
      items: 2,
      passed: 1,
      failed: 1,
      meanScore: 0.75,
      byScorer: { contains: 0.5, tools: 1, grounded: 1 },
    });
    const [calc, wrong] = run.items;
    assert.equal(calc.passed, true);
    assert.deepEqual(calc.input, ['123 * 456 계산해줘']);
    assert.ok(calc.latencyMs >= 0);
    assert.ok(calc.usage.llmCalls >= 2);
    assert.equal(wrong.passed, false);
    assert.match(wrong.scores[0].reason, /does not state "600"/);
    // The item's session is the owner's, like any other.
    assert.equal(
      (await call(keyed, 'GET', `/api/sessions/${calc.sessionId}`, { key: 'alice-key' })).status,
      200,
    );
    assert.equal(
      (await call(keyed, 'GET', `/api/sessions/${calc.sessionId}`, { key: 'bob-key' })).status,
      404,
    );
    const listed = await call(keyed, 'GET', '/api/evals', { key: 'alice-key' });
    assert.equal(listed.body.runs[0].id, run.id);
    assert.equal(listed.body.runs[0].items, undefined);
    assert.deepEqual((await call(keyed, 'GET', '/api/evals', { key: 'bob-key' })).body, {
      runs: [],
    });
    assert.equal(
      (await call(keyed, 'GET', `/api/evals/${run.id}`, { key: 'bob-key' })).status,
      404,
    );
  });

  it('rates a session’s last answer and exports ratings as dataset lines', async () => {
    const asked = await call(open, 'POST', '/api/agent/invoke', {
      body: { message: '123 * 456 계산해줘', sessionId: 'rated-up' },
    });
    assert.equal(asked.status, 200);
    await call(open, 'POST', '/api/agent/invoke', {
      body: { message: '안녕하세요', sessionId: 'rated-down' },
    });
    const up = await call(open, 'POST', '/api/sessions/rated-up/feedback', { body: { rating: 1 } });
    assert.equal(up.status, 201);
    const down = await call(open, 'POST', '/api/sessions/rated-down/feedback', {
      body: { rating: -1, comment: 'not helpful' },
    });
    assert.equal(down.status, 201);
    assert.equal(
      (await call(open, 'POST', '/api/sessions/rated-up/feedback', { body: { rating: 2 } })).status,
      400,
    );
    assert.equal(
      (await call(open, 'POST', '/api/sessions/nobody/feedback', { body: { rating: 1 } })).status,
      404,
    );
    const out = join(root, 'feedback.jsonl');
    const exported = await runYeoul([
      'eval',
      'export-feedback',
      '--out',
      out,
      '--data',
      open.dataDir,
    ]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /wrote 2 dataset lines/);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => [line.input, line.expected, line.tags]),
      [
        ['123 * 456 계산해줘', asked.body.response, ['feedback:up']],
        ['안녕하세요', undefined, ['feedback:down']],
      ],
    );
    assert.equal(lines[1].metadata.comment, 'not helpful');
    // The exported lines are a dataset `yeoul eval` reads.
    const rerun = await runYeoul(['eval', out, '--data', open.dataDir, '--name', 'from-feedback']);
    assert.equal(rerun.code, 0, rerun.stderr);
    // A run the CLI made is listed by the server on the same data folder.
    const listed = await call(open, 'GET', '/api/evals');
    assert.equal(listed.body.runs[0].name, 'from-feedback');
  });

  it('stores a run the server’s shutdown interrupted as failed, never left running', async () => {
    const dataDir = join(root, 'shutdown');
    const server = await startTestServer(dataDir);
    const items = Array.from({ length: 1000 }, (_, index) => ({
      id: `item-${index}`,
      input: ['내 이름은 철수야', '123 * 456 계산해줘', '내 이름이 뭐라고 했지?'],
    }));
    const started = await call(server, 'POST', '/api/evals', { body: { name: 'long', items } });
    assert.equal(started.status, 202);
    await server.server.close();
    const reopened = await startTestServer(dataDir);
    try {
      const run = (await call(reopened, 'GET', `/api/evals/${started.body.id}`)).body;
      assert.equal(run.status, 'failed');
      assert.equal(run.error, 'the server shut down before the run finished');
    } finally {
      await reopened.server.close();
    }
  });
});
