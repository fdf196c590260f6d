import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineState, END, interrupt, replace, START, StateGraph } from '../src/graph/index.ts';
import { ownerOfKey } from '../src/identity/index.ts';
import { readEvents, runYeoul } from '../src/testing/internal/index.ts';
import { startTestServer, type TestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-usage-limits-'));
after(() => rmSync(root, { recursive: true, force: true }));

const keys = ['rate', 'other', 'stream', 'v1', 'mcp', 'evals', 'graphs', 'resume', 'u1', 'u2'];

/** A graph whose state reports what its (pretend) model calls used, and one that asks first. */
const graphs = {
  metered: new StateGraph(
    defineState({
      note: replace(''),
      usage: replace({ llmCalls: 0, inputTokens: 0, outputTokens: 0 }),
    }),
  )
    .addNode('work', () => ({
      note: 'done',
      usage: { llmCalls: 1, inputTokens: 40, outputTokens: 2 },
    }))
    .addEdge(START, 'work')
    .addEdge('work', END),
  asker: new StateGraph(defineState({ answer: replace('') }))
    .addNode('ask', (_state, context) => {
      const answer = Object.values(context.resume?.answers ?? {})[0];
      if (answer === undefined) return interrupt([{ key: 'q', value: 'go on?' }]);
      return { answer: String(answer) };
    })
    .addEdge(START, 'ask')
    .addEdge('ask', END),
};

async function call(
  server: TestServer,
  method: string,
  path: string,
  options: { key?: string; body?: unknown } = {},
) {
  const response = await fetch(`${server.server.url}${path}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const type = response.headers.get('content-type') ?? '';
  const body = type.includes('text/event-stream')
    ? await readEvents(response)
    : (await response.text()) || 'null';
  return {
    status: response.status,
    type,
    retryAfter: response.headers.get('retry-after'),
    body: (typeof body === 'string' ? JSON.parse(body) : body) as Json,
  };
}

const invoke = (server: TestServer, key: string, message = '안녕하세요') =>
  call(server, 'POST', '/api/agent/invoke', { key, body: { message } });

/** A 429 of the limits: its code, and a retry-after in whole seconds within `max`. */
function assertRefused(
  answer: { status: number; retryAfter: string | null; body: Json },
  code: string,
  max: number,
): void {
  assert.equal(answer.status, 429, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, code);
  const seconds = Number(answer.retryAfter);
  assert.ok(
    Number.isInteger(seconds) && seconds >= 1 && seconds <= max,
    `retry-after ${answer.retryAfter}`,
  );
}

async function mcpClient(server: TestServer, key: string) {
  const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function finishedEval(server: TestServer, key: string, id: string): Promise<Json> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { body } = await call(server, 'GET', `/api/evals/${id}`, { key });
    if (body.status !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`evaluation run ${id} did not finish`);
}

describe('the limits’ settings', () => {
  it('refuse the start when a limit is not a positive whole number, naming each variable', async () => {
    const run = await runYeoul(['serve', '--port', '0', '--data', join(root, 'refused')], {
      env: { YEOUL_REQUESTS_PER_MINUTE: '0', YEOUL_TOKENS_PER_MONTH: 'lots' },
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /YEOUL_REQUESTS_PER_MINUTE: must be a whole number from 1 to 100000/);
    assert.match(run.stderr, /YEOUL_TOKENS_PER_MONTH: must be a positive whole number/);
  });
});

describe('per-owner limits of run requests', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      join(root, 'rate'),
      {
        YEOUL_API_KEYS: keys.join(','),
        YEOUL_REQUESTS_PER_MINUTE: '2',
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
      },
      { config: { graphs } },
    );
  });
  after(() => server?.server.close());

  it('refuses the third run request of a minute with 429 rate_limited and retry-after, counting and keeping nothing of it', async () => {
    assert.equal((await invoke(server, 'rate')).status, 200);
    assert.equal((await invoke(server, 'rate')).status, 200);
    const refused = await invoke(server, 'rate', 'a third one');
    assertRefused(refused, 'rate_limited', 60);
    assert.match(refused.body.error.message, /limit of 2 per minute; retry in \d+ s$/);
    // Other owners are not affected.
    assert.equal((await invoke(server, 'other')).status, 200);
    const sessions = await call(server, 'GET', '/api/sessions', { key: 'rate' });
    assert.equal(sessions.body.sessions.length, 2, 'the refused request left a session');
    const usage = await call(server, 'GET', '/api/usage', { key: 'rate' });
    assert.equal(usage.body.owner, ownerOfKey('rate'));
    assert.equal(usage.body.total.requests, 2);
    assert.deepEqual(usage.body.limits, {
      requestsPerMinute: 2,
      tokensPerDay: null,
      tokensPerMonth: null,
    });
    assert.deepEqual(usage.body.remaining, { tokensToday: null, tokensThisMonth: null });
  });

  it('gives a stream request over the limit its 429 as JSON, before any event', async () => {
    for (let index = 0; index < 2; index += 1) {
      const accepted = await call(server, 'POST', '/api/agent/stream', {
        key: 'stream',
        body: { message: '안녕하세요' },
      });
      assert.equal(accepted.status, 200);
      assert.equal(accepted.body.at(-1).event, 'done');
    }
    const refused = await call(server, 'POST', '/api/agent/stream', {
      key: 'stream',
      body: { message: '안녕하세요' },
    });
    assert.match(refused.type, /application\/json/);
    assertRefused(refused, 'rate_limited', 60);
  });

  it('takes back a resume refused before its run began, and refuses a resume over the limit', async () => {
    const first = await invoke(server, 'resume');
    assert.equal(first.status, 200);
    const nothingPending = await call(server, 'POST', '/api/agent/invoke', {
      key: 'resume',
      body: {
        sessionId: first.body.sessionId,
        resume: { decisions: [{ id: 'x', approve: true }] },
      },
    });
    assert.equal(nothingPending.status, 409);
    assert.equal((await invoke(server, 'resume')).status, 200, 'the 409 kept its place');
    const over = await call(server, 'POST', '/api/agent/invoke', {
      key: 'resume',
      body: {
        sessionId: first.body.sessionId,
        resume: { decisions: [{ id: 'x', approve: true }] },
      },
    });
    assertRefused(over, 'rate_limited', 60);
  });

  it('answers /v1 over the limit in OpenAI’s shape, streamed or not', async () => {
    const body = { model: 'yeoul-chat', messages: [{ role: 'user', content: '안녕하세요' }] };
    assert.equal(
      (await call(server, 'POST', '/v1/chat/completions', { key: 'v1', body })).status,
      200,
    );
    const streamed = await call(server, 'POST', '/v1/chat/completions', {
      key: 'v1',
      body: { ...body, stream: true },
    });
    assert.equal(streamed.status, 200);
    for (const stream of [false, true]) {
      const refused = await call(server, 'POST', '/v1/chat/completions', {
        key: 'v1',
        body: { ...body, stream },
      });
      assertRefused(refused, 'rate_limited', 60);
      assert.match(refused.type, /application\/json/);
      assert.equal(refused.body.error.type, 'rate_limit_error');
      assert.equal(refused.body.error.param, null);
    }
  });

  it('answers MCP ask over the limit with a tool error naming the code', async () => {
    const client = await mcpClient(server, 'mcp');
    try {
      for (let index = 0; index < 2; index += 1) {
        const result = (await client.callTool({
          name: 'ask',
          arguments: { message: '안녕하세요' },
        })) as Json;
        assert.equal(result.isError, undefined);
      }
      const refused = (await client.callTool({
        name: 'ask',
        arguments: { message: '안녕하세요' },
      })) as Json;
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /^rate_limited: .*retry in \d+ s$/);
    } finally {
      await client.close();
    }
  });

  it('counts evaluation runs and graph runs (a resume included) as run requests', async () => {
    for (let index = 0; index < 2; index += 1) {
      const started = await call(server, 'POST', '/api/evals', {
        key: 'evals',
        body: { items: [{ input: '안녕하세요' }] },
      });
      assert.equal(started.status, 202);
    }
    assertRefused(
      await call(server, 'POST', '/api/evals', { key: 'evals', body: { items: [{ input: 'x' }] } }),
      'rate_limited',
      60,
    );
    const asked = await call(server, 'POST', '/api/graphs/asker/invoke', {
      key: 'graphs',
      body: { input: {} },
    });
    assert.equal(asked.body.status, 'interrupted');
    const resumed = await call(server, 'POST', '/api/graphs/asker/invoke', {
      key: 'graphs',
      body: {
        threadId: asked.body.threadId,
        resume: { answers: { [asked.body.interrupts[0].id]: 'yes' } },
      },
    });
    assert.equal(resumed.body.values.answer, 'yes');
    const refused = await call(server, 'POST', '/api/graphs/metered/stream', {
      key: 'graphs',
      body: { input: {} },
    });
    assertRefused(refused, 'rate_limited', 60);
    assert.match(refused.type, /application\/json/);
  });

  it('counts refusals in /metrics by limit, never by owner', async () => {
    const text = await (await fetch(`${server.server.url}/metrics`)).text();
    const line = text
      .split('\n')
      .find((entry) =>
        entry.startsWith('yeoul_limited_requests_total{limit="requests_per_minute"}'),
      );
    assert.ok(line && Number(line.split(' ').at(-1)) >= 7, line);
    assert.equal(text.includes(ownerOfKey('rate')), false);
  });
});

describe('per-owner token budgets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      join(root, 'budget'),
      { YEOUL_SAMPLE_KNOWLEDGE: 'false' },
      { config: { limits: { tokensPerDay: 1 } } },
    );
  });
  after(() => server?.server.close());

  it('lets a started run finish past the budget, all its tokens counted, and refuses the next until 00:00 UTC', async () => {
    const first = await invoke(server, '');
    assert.equal(first.status, 200);
    const used = first.body.usage.inputTokens + first.body.usage.outputTokens;
    assert.ok(used > 1, 'the run used more than the budget');
    const secondsToMidnight = Math.ceil(
      (Date.UTC(
        new Date().getUTCFullYear(),
        new Date().getUTCMonth(),
        new Date().getUTCDate() + 1,
      ) -
        Date.now()) /
        1000,
    );
    const refused = await invoke(server, '');
    assertRefused(refused, 'budget_exceeded', 86_400);
    assert.ok(
      Math.abs(Number(refused.retryAfter) - secondsToMidnight) <= 5,
      refused.retryAfter ?? '',
    );
    assert.match(refused.body.error.message, /daily budget of 1/);
    const stream = await call(server, 'POST', '/api/agent/stream', { body: { message: 'x' } });
    assertRefused(stream, 'budget_exceeded', 86_400);
    const usage = await call(server, 'GET', '/api/usage');
    assert.equal(usage.body.total.inputTokens + usage.body.total.outputTokens, used);
    assert.deepEqual(usage.body.remaining, { tokensToday: 0, tokensThisMonth: null });
    assert.equal(usage.body.limits.tokensPerDay, 1);
  });
});

describe('usage', () => {
  let server: TestServer;
  const dataDir = join(root, 'usage');
  before(async () => {
    server = await startTestServer(
      dataDir,
      { YEOUL_API_KEYS: keys.join(','), YEOUL_SAMPLE_KNOWLEDGE: 'false' },
      { config: { graphs } },
    );
  });
  after(() => server?.server.close());

  it('totals what the responses’ usage reported: invoke bodies, done events, eval items, graph states', async () => {
    const reported = { requests: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0 };
    const add = (usage: Json) => {
      reported.requests += 1;
      reported.llmCalls += usage.llmCalls;
      reported.inputTokens += usage.inputTokens;
      reported.outputTokens += usage.outputTokens;
    };
    add((await invoke(server, 'u1', '123 * 456')).body.usage);
    add((await invoke(server, 'u1', '오늘 날씨 어때?')).body.usage);
    const streamed = await call(server, 'POST', '/api/agent/stream', {
      key: 'u1',
      body: { message: '안녕하세요' },
    });
    add(streamed.body.find((event: Json) => event.event === 'done').data.usage);
    const started = await call(server, 'POST', '/api/evals', {
      key: 'u1',
      body: { items: [{ input: '2 + 2' }, { input: '안녕하세요' }] },
    });
    const run = await finishedEval(server, 'u1', started.body.id);
    add({ llmCalls: 0, inputTokens: 0, outputTokens: 0 });
    for (const item of run.items) {
      reported.llmCalls += item.usage.llmCalls;
      reported.inputTokens += item.usage.inputTokens;
      reported.outputTokens += item.usage.outputTokens;
    }
    await call(server, 'POST', '/api/graphs/metered/invoke', { key: 'u1', body: { input: {} } });
    add({ llmCalls: 1, inputTokens: 40, outputTokens: 2 });
    const usage = await call(server, 'GET', '/api/usage', { key: 'u1' });
    assert.deepEqual(usage.body.total, reported);
    // Its days add up to the total (one day, unless the test ran across 00:00 UTC).
    const days = usage.body.days as Json[];
    assert.equal(
      days.reduce((sum, day) => sum + day.inputTokens + day.outputTokens, 0),
      reported.inputTokens + reported.outputTokens,
    );
  });

  it('totals /v1 completions as their usage reported', async () => {
    let prompt = 0;
    let completion = 0;
    for (const content of ['안녕하세요', '123 * 456']) {
      const answer = await call(server, 'POST', '/v1/chat/completions', {
        key: 'u2',
        body: { model: 'yeoul-chat', messages: [{ role: 'user', content }] },
      });
      prompt += answer.body.usage.prompt_tokens;
      completion += answer.body.usage.completion_tokens;
    }
    const { body } = await call(server, 'GET', '/api/usage', { key: 'u2' });
    assert.equal(body.total.requests, 2);
    assert.equal(body.total.inputTokens, prompt);
    assert.equal(body.total.outputTokens, completion);
  });

  it('refuses bad dates naming the parameter, and another owner’s usage to a caller who is not an admin', async () => {
    for (const [query, param] of [
      ['from=2025-1-1', 'from'],
      ['to=2025-02-30', 'to'],
      ['from=2025-03-02&to=2025-03-01', 'from'],
      ['from=2024-01-01&to=2025-06-01', 'from'],
    ]) {
      const { status, body } = await call(server, 'GET', `/api/usage?${query}`, { key: 'u1' });
      assert.equal(status, 400, query);
      assert.equal(body.error.code, 'invalid_request');
      assert.equal(body.error.details.param, param);
      assert.match(body.error.message, new RegExp(`^${param}: `));
    }
    for (const owner of ['*', ownerOfKey('u2')]) {
      const { status, body } = await call(
        server,
        'GET',
        `/api/usage?owner=${encodeURIComponent(owner)}`,
        {
          key: 'u1',
        },
      );
      assert.equal(status, 403);
      assert.equal(body.error.code, 'insufficient_scope');
    }
    const own = await call(
      server,
      'GET',
      `/api/usage?owner=${ownerOfKey('u1')}&from=2020-01-01&to=2020-01-31`,
      {
        key: 'u1',
      },
    );
    assert.deepEqual(own.body.days, []);
    assert.deepEqual(own.body.total, { requests: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('prints every owner’s usage, or one owner’s, with `yeoul usage` beside the running server', async () => {
    const env = { YEOUL_SAMPLE_KNOWLEDGE: 'false' };
    const all = await runYeoul(['usage', '--data', dataDir, '--json'], { env });
    assert.equal(all.code, 0, all.stderr);
    const body = JSON.parse(all.stdout) as Json;
    assert.deepEqual(
      body.owners.map((entry: Json) => entry.owner),
      [ownerOfKey('u1'), ownerOfKey('u2')].sort(),
    );
    const table = await runYeoul(['usage', '--data', dataDir], { env });
    assert.match(table.stdout, /^owner +requests +llm calls +input tokens +output tokens$/m);
    assert.ok(table.stdout.includes(ownerOfKey('u2')));
    const one = await runYeoul(['usage', '--data', dataDir, '--key', 'u1', '--json'], { env });
    const api = await call(server, 'GET', '/api/usage', { key: 'u1' });
    assert.deepEqual(JSON.parse(one.stdout), api.body);
    const byOwner = await runYeoul(['usage', '--data', dataDir, '--owner', ownerOfKey('u1')], {
      env,
    });
    assert.match(byOwner.stdout, /^total +\d+/m);
    assert.match(byOwner.stdout, /^run requests per minute: no limit$/m);
    const bad = await runYeoul(['usage', '--data', dataDir, '--to', 'tomorrow'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--to: "tomorrow" is not a date/);
    const both = await runYeoul(['usage', '--owner', 'x', '--key', 'y'], { env });
    assert.equal(both.code, 2);
  });

  it('keeps the counts across a restart', async () => {
    const before = (await call(server, 'GET', '/api/usage', { key: 'u1' })).body;
    await server.server.close();
    server = await startTestServer(dataDir, {
      YEOUL_API_KEYS: keys.join(','),
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    });
    assert.deepEqual((await call(server, 'GET', '/api/usage', { key: 'u1' })).body, before);
  });
});
