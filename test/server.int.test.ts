import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createRuntime,
  type RunningServer,
  readServerConfig,
  startServer,
} from '../src/server/index.ts';
import { startFakeOpenAiServer, waitUntil } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-server-'));
after(() => rmSync(root, { recursive: true, force: true }));

const serve = (env: Record<string, string> = {}, dataDir = mkdtempSync(join(root, 'data-'))) =>
  startTestServer(dataDir, env);

function client(server: RunningServer, key?: string) {
  const headers = (extra: Record<string, string> = {}) => ({
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...extra,
  });
  return {
    async post(path: string, body: unknown) {
      const response = await fetch(server.url + path, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Json };
    },
    async get(path: string) {
      const response = await fetch(server.url + path, { headers: headers() });
      const text = await response.text();
      return {
        status: response.status,
        text,
        body: text.startsWith('{') ? JSON.parse(text) : undefined,
      };
    },
    async delete(path: string) {
      return (await fetch(server.url + path, { method: 'DELETE', headers: headers() })).status;
    },
  };
}

describe('HTTP API (no keys, offline model)', () => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  before(async () => {
    ({ server } = await serve());
    api = client(server);
  });
  after(() => server.close());

  it('invokes the agent and returns the contract payload', async () => {
    const { status, body } = await api.post('/api/agent/invoke', { message: '123 * 456 계산해줘' });
    assert.equal(status, 200);
    assert.equal(body.response, '123 * 456 = 56,088입니다.');
    assert.deepEqual(body.toolsUsed, ['calculator']);
    assert.equal(body.status, 'published');
    assert.deepEqual(body.steps, ['router', 'memory', 'agent', 'tools', 'agent']);
    assert.equal(body.usage.llmCalls, 2);
    assert.equal(typeof body.executionTime, 'number');
  });

  it('answers from the bundled sample knowledge base', async () => {
    const { body } = await api.post('/api/agent/invoke', { message: '팀 예산이 얼마야?' });
    assert.match(body.response, /1억원/);
    const vacation = await api.post('/api/agent/invoke', { message: '회사 휴가 정책이 뭐야?' });
    assert.match(
      vacation.body.response,
      /연차는 입사 첫해에 15일/,
      'the policy’s opening section, not a later one',
    );
    const search = await api.post('/api/search', { query: '병가는 며칠?', k: 2 });
    assert.equal(search.status, 200);
    assert.match(search.body.hits[0].text, /병가는 연 10일/);
  });

  it('streams step, tool and token events, then done', async () => {
    const response = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '123 * 456 계산해줘' }),
    });
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const text = await response.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    assert.equal(events[0], 'step');
    assert.ok(events.indexOf('tool-call') < events.indexOf('tool-result'));
    assert.ok(events.includes('token'));
    assert.equal(events.at(-1), 'done');
    const done = JSON.parse(text.split('event: done\ndata: ')[1] as string);
    assert.equal(done.response, '123 * 456 = 56,088입니다.');
  });

  it('refuses bad input with the contract error shape and fitting statuses', async () => {
    const cases: Array<[unknown, number, string]> = [
      ['{not json', 400, 'invalid_request'],
      [{ message: 42 }, 400, 'invalid_request'],
      [{ message: '' }, 400, 'empty_input'],
      [{ message: '   ' }, 400, 'empty_input'],
      [{ message: 'hi', unknown: true }, 400, 'invalid_request'],
      [{ message: 'hi', options: { temperature: 9 } }, 400, 'invalid_request'],
      [{ message: 'hi', sessionId: 'bad id!' }, 400, 'invalid_request'],
      [{ message: '말 '.repeat(5000) }, 413, 'input_too_long'],
    ];
    for (const [body, status, code] of cases) {
      const result = await api.post('/api/agent/invoke', body);
      assert.equal(result.status, status, JSON.stringify(body).slice(0, 40));
      assert.equal(result.body.error.code, code);
      assert.equal(typeof result.body.error.message, 'string');
    }
    const tooLong = await api.post('/api/agent/invoke', { message: '말 '.repeat(5000) });
    assert.match(tooLong.body.error.message, /\d+ tokens/);
    const huge = await api.post('/api/agent/invoke', { message: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error.code, 'payload_too_large');
    // A long unbroken run is a cheap message to count, not a stall of the server.
    const blob = await api.post('/api/agent/invoke', { message: 'x'.repeat(99_000) });
    assert.equal(blob.status, 413);
    assert.equal(blob.body.error.code, 'input_too_long');
    assert.match(blob.body.error.message, /at most \d+ fit \(YEOUL_MAX_INPUT_TOKENS\)/);
  });

  it('keeps sessions: show, list, delete, and 404 for unknown ones', async () => {
    const first = await api.post('/api/agent/invoke', {
      message: '내 이름은 철수야',
      sessionId: 'kim',
    });
    assert.equal(first.body.sessionId, 'kim');
    const second = await api.post('/api/agent/invoke', {
      message: '내 이름이 뭐라고 했지?',
      sessionId: 'kim',
    });
    assert.equal(second.body.response, '철수님이라고 하셨어요.');
    const shown = await api.get('/api/sessions/kim');
    assert.equal(shown.body.messages.length, 4);
    assert.equal(typeof shown.body.summary, 'string');
    assert.ok(
      (await api.get('/api/sessions')).body.sessions.some(
        (session: { sessionId: string }) => session.sessionId === 'kim',
      ),
    );
    assert.equal(await api.delete('/api/sessions/kim'), 204);
    assert.equal((await api.get('/api/sessions/kim')).status, 404);
    assert.equal((await api.get('/api/sessions/nobody')).body.error.code, 'not_found');
  });

  it('keeps all 50 concurrent requests on one session, in order', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        api.post('/api/agent/invoke', { message: `메모 ${index}번`, sessionId: 'busy' }),
      ),
    );
    assert.deepEqual(
      results.map((result) => result.status),
      Array.from({ length: 50 }, () => 200),
    );
    const shown = await api.get('/api/sessions/busy');
    const users = shown.body.messages.filter(
      (message: { role: string }) => message.role === 'user',
    );
    // Memory summarises old turns: the kept user messages are the latest, in arrival order.
    const numbers = users.map((message: { content: string }) =>
      Number(/메모 (\d+)번/.exec(message.content)?.[1]),
    );
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
    assert.ok(shown.body.summary.length > 0, 'older turns were summarised, not lost');
  });

  it('serves 200 sessions at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        api.post('/api/agent/invoke', { message: '안녕하세요', sessionId: `s-${index}` }),
      ),
    );
    assert.ok(results.every((result) => result.status === 200));
  });

  it('takes a whole corpus in one request (1000 documents, several MB)', async () => {
    const documents = Array.from({ length: 1000 }, (_, index) => ({
      id: `bulk-${index}`,
      title: `문서 ${index}`,
      text: `${index}번 문서입니다. ${'대한민국의 역사와 문화에 관한 설명이 이어집니다. '.repeat(40)}고유 표지 ${index * 7919}.`,
    }));
    const added = await api.post('/api/documents', { documents });
    assert.equal(added.status, 201);
    assert.equal(added.body.ids.length, 1000);
    const hits = await api.post('/api/search', { query: `고유 표지 ${500 * 7919}`, k: 3 });
    assert.equal(hits.body.hits[0].documentId, 'bulk-500');
  });

  it('ingests JSON and multipart documents, lists and deletes them', async () => {
    const added = await api.post('/api/documents', {
      documents: [
        { id: 'wifi', title: 'Wi-Fi', text: '사무실 와이파이 비밀번호는 매달 바뀝니다.' },
      ],
    });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body.ids, ['wifi']);
    const form = new FormData();
    form.append('file', new Blob(['# Parking\n\nThe parking garage opens at 7:00.']), 'parking.md');
    const upload = await fetch(`${server.url}/api/documents`, { method: 'POST', body: form });
    assert.equal(upload.status, 201);
    assert.equal(
      (await api.post('/api/search', { query: 'when does the parking garage open' })).body.hits[0]
        .title,
      'Parking',
    );
    const listed = await api.get('/api/documents');
    assert.ok(listed.body.documents.some((document: { id: string }) => document.id === 'wifi'));
    assert.equal(await api.delete('/api/documents/wifi'), 204);
    assert.equal(await api.delete('/api/documents/wifi'), 404);
    const bad = new FormData();
    bad.append('file', new Blob(['MZ']), 'tool.exe');
    assert.equal(
      (await fetch(`${server.url}/api/documents`, { method: 'POST', body: bad })).status,
      415,
    );
  });

  it('reports status, health, metrics and an OpenAPI document', async () => {
    const status = await api.get('/api/agent/status');
    assert.equal(status.body.model, 'offline:rules');
    assert.ok(status.body.tools.includes('calculator'));
    assert.deepEqual((await api.get('/healthz')).body, { status: 'ok' });
    const metrics = await api.get('/metrics');
    assert.match(
      metrics.text,
      /yeoul_http_requests_total\{route="\/api\/agent\/invoke",method="POST",status="200"\} \d+/,
    );
    assert.match(metrics.text, /yeoul_llm_calls_total \d+/);
    const openapi = await api.get('/openapi.json');
    assert.equal(openapi.body.openapi, '3.1.0');
    const invoke = openapi.body.paths['/api/agent/invoke'].post;
    assert.equal(invoke.operationId, 'invokeAgent');
    assert.ok('message' in invoke.requestBody.content['application/json'].schema.properties);
    assert.ok('resume' in invoke.requestBody.content['application/json'].schema.properties);
    assert.ok(invoke.responses['200'].content['application/json'].schema.properties.sources);
    assert.equal((await api.get('/no/such/route')).status, 404);
  });
});

describe('HTTP API with keys', () => {
  let server: RunningServer;
  before(async () => {
    ({ server } = await serve({ YEOUL_API_KEYS: 'key-a,key-b', YEOUL_SAMPLE_KNOWLEDGE: 'false' }));
  });
  after(() => server.close());

  it('requires a valid bearer key on /api and keeps sessions to the key that made them', async () => {
    assert.equal((await client(server).post('/api/agent/invoke', { message: 'hi' })).status, 401);
    assert.equal(
      (await client(server, 'wrong').post('/api/agent/invoke', { message: 'hi' })).status,
      401,
    );
    assert.equal((await client(server).get('/healthz')).status, 200);
    const a = client(server, 'key-a');
    const b = client(server, 'key-b');
    assert.equal(
      (await a.post('/api/agent/invoke', { message: '안녕', sessionId: 'mine' })).status,
      200,
    );
    assert.equal((await b.get('/api/sessions/mine')).status, 404);
    assert.equal(
      (await b.post('/api/agent/invoke', { message: '안녕', sessionId: 'mine' })).status,
      404,
    );
    assert.equal(await b.delete('/api/sessions/mine'), 404);
    assert.equal((await a.get('/api/sessions/mine')).status, 200);
    assert.deepEqual((await b.get('/api/sessions')).body.sessions, []);
  });
});

describe('HTTP API lifecycle', () => {
  it('answers 409 beyond the per-session queue bound, and takes requests again after', async () => {
    // The first answer takes long enough for all six requests to take their places first.
    const model = await startFakeOpenAiServer([{ kind: 'text', text: 'ok' }], { delayMs: 1000 });
    const { server } = await serve({
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_SESSION_QUEUE_LIMIT: '2',
      YEOUL_MODEL: 'compat:slow',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
    });
    const api = client(server);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.post('/api/agent/invoke', { message: 'hello there', sessionId: 'queue' }),
      ),
    );
    const statuses = results.map((result) => result.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 409, 409, 409]);
    assert.equal(results.find((result) => result.status === 409)?.body.error.code, 'session_busy');
    assert.equal(
      (await api.post('/api/agent/invoke', { message: 'hello again', sessionId: 'queue' })).status,
      200,
    );
    await server.close();
    await model.close();
  });

  it('refuses to listen beyond loopback without keys', async () => {
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: mkdtempSync(join(root, 'lo-')),
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
      }),
    );
    await assert.rejects(
      startServer(runtime, { host: '0.0.0.0', port: 0, logger: false }),
      /without YEOUL_API_KEYS/,
    );
    await runtime.close();
  });

  it('runs the agent graphs in the durability YEOUL_DURABILITY names', async () => {
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: mkdtempSync(join(root, 'durability-')),
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_DURABILITY: 'async',
      }),
    );
    assert.deepEqual(
      runtime.runner.graphs.entries.map((entry) => [entry.name, entry.graph.durability]),
      [
        ['chat', 'async'],
        ['react', 'async'],
        ['ops', 'async'],
      ],
    );
    await runtime.close();
  });

  it('remembers a conversation across a restart', async () => {
    const first = await serve({ YEOUL_SAMPLE_KNOWLEDGE: 'false' });
    await client(first.server).post('/api/agent/invoke', {
      message: '내 이름은 영희야',
      sessionId: 'restart',
    });
    await first.server.close();
    const second = await serve({ YEOUL_SAMPLE_KNOWLEDGE: 'false' }, first.dataDir);
    const { body } = await client(second.server).post('/api/agent/invoke', {
      message: '내 이름이 뭐라고 했지?',
      sessionId: 'restart',
    });
    assert.equal(body.response, '영희님이라고 하셨어요.');
    await second.server.close();
  });

  it('cancels the run when a streaming client that asked for it disconnects', async () => {
    const model = await startFakeOpenAiServer([{ kind: 'hang' }]);
    const { server } = await serve({
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_MODEL: 'compat:slow',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
    });
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'hello there',
        sessionId: 'leaver',
        options: { onDisconnect: 'cancel' },
      }),
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    const cancelled = /yeoul_runs_total\{status="cancelled",graph="chat"\} 1/;
    await waitUntil(
      async () => cancelled.test((await client(server).get('/metrics')).text),
      'the run counted as cancelled',
    );
    assert.equal((await client(server).get('/api/sessions/leaver')).body.status, 'cancelled');
    assert.equal((await client(server).get('/api/agent/status')).body.activeRuns, 0);
    await server.close();
    await model.close();
  });
});
