import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  freePort,
  type PostgresServer,
  type ServeProcess,
  startPostgresServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON-RPC bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-mcp-revisions-'));
after(() => rmSync(root, { recursive: true, force: true }));

const keys = { YEOUL_API_KEYS: 'key-a,key-b' };
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const accept = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};

/** An SDK client of `url` with `key`, connected (initialize done), and its transport. */
async function sdkClient(url: string, key: string, sessionId?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: auth(key) },
    ...(sessionId ? { sessionId } : {}),
  });
  const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A raw POST to /mcp: the status, the headers and the body (JSON, or the last SSE message). */
async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...accept, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)))
    : text === ''
      ? undefined
      : JSON.parse(text);
  return { status: response.status, headers: response.headers, body: data as Json };
}

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/** A 2026-07-28 request: the body and the headers that agree with it. */
function stateless(method: string, params: Record<string, unknown> = {}, id = 7) {
  const body: Json = {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
  };
  const headers: Record<string, string> = {
    ...auth('key-a'),
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
  };
  return { body, headers };
}

describe('MCP revisions of a yeoul serve on one data folder (SQLite), across a restart', () => {
  const data = mkdtempSync(join(root, 'sqlite-'));
  let port: number;
  let server: ServeProcess;
  let url: string;
  const start = async () => {
    server = await startServeProcess(data, keys, ['--no-sample', '--port', String(port)]);
    url = server.url;
  };
  before(async () => {
    port = await freePort();
    await start();
  });
  after(() => server?.stop());

  it('gives the SDK client a session that survives a restart, until DELETE ends it', async () => {
    const { client, transport } = await sdkClient(url, 'key-a');
    const sessionId = transport.sessionId as string;
    assert.match(sessionId, /^[0-9a-f-]{36}$/);
    assert.equal((await client.listTools()).tools.length, 2);
    await server.stop();
    await start();
    const result = (await client.callTool({
      name: 'ask',
      arguments: { message: '123 * 456 계산해줘' },
    })) as Json;
    assert.equal(result.structuredContent.status, 'published');
    assert.match(result.content[0].text, /56,088/);
    assert.equal(transport.sessionId, sessionId);
    await transport.terminateSession();
    const after = await post(url, listTools, { ...auth('key-a'), 'mcp-session-id': sessionId });
    assert.equal(after.status, 404);
    assert.deepEqual(after.body.error, { code: -32001, message: 'Session not found' });
    await client.close();
    const stale = await sdkClient(url, 'key-a', sessionId);
    await assert.rejects(stale.client.listTools(), /404|Session not found/);
    await stale.client.close();
  });

  it('answers a request naming another key’s session, or none it knows, with 404 -32001', async () => {
    const { client, transport } = await sdkClient(url, 'key-a');
    const sessionId = transport.sessionId as string;
    for (const [key, id] of [
      ['key-b', sessionId],
      ['key-a', 'never-initialized'],
    ] as const) {
      const refused = await post(url, listTools, { ...auth(key), 'mcp-session-id': id });
      assert.equal(refused.status, 404);
      assert.deepEqual(refused.body, {
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Session not found' },
        id: 1,
      });
    }
    const foreignEnd = await fetch(`${url}/mcp`, {
      method: 'DELETE',
      headers: { ...auth('key-b'), 'mcp-session-id': sessionId },
    });
    assert.equal(foreignEnd.status, 404);
    assert.equal((await client.listTools()).tools.length, 2);
    await client.close();
  });

  it('answers a 2026-07-28 POST with no initialize and no session', async () => {
    const discover = stateless('server/discover');
    const described = await post(url, discover.body, discover.headers);
    assert.equal(described.status, 200);
    assert.equal(described.headers.get('mcp-session-id'), null);
    assert.equal(described.body.id, 7);
    assert.equal(described.body.result.protocolVersion, '2026-07-28');
    assert.deepEqual(Object.keys(described.body.result).sort(), [
      'capabilities',
      'protocolVersion',
      'serverInfo',
    ]);
    assert.equal(described.body.result.serverInfo.name, 'yeoul');
    assert.equal(typeof described.body.result.serverInfo.version, 'string');
    assert.ok(described.body.result.capabilities.tools);

    const list = stateless('tools/list');
    const listed = await post(url, list.body, list.headers);
    assert.deepEqual(listed.body.result.tools.map((tool: Json) => tool.name).sort(), [
      'ask',
      'search_knowledge',
    ]);

    const ask = stateless('tools/call', {
      name: 'ask',
      arguments: { message: '123 * 456 계산해줘' },
    });
    const answered = await post(url, ask.body, ask.headers);
    assert.equal(answered.status, 200);
    assert.equal(answered.headers.get('mcp-session-id'), null);
    assert.equal(answered.body.result.structuredContent.status, 'published');
    assert.match(answered.body.result.content[0].text, /56,088/);
  });

  it('streams a 2026-07-28 ask’s progress when the client sent a progress token', async () => {
    const ask = stateless('tools/call', {
      name: 'ask',
      arguments: { message: '123 * 456 계산해줘' },
    });
    (ask.body.params._meta as Json).progressToken = 'p1';
    const streamed = await post(url, ask.body, ask.headers);
    assert.equal(streamed.status, 200);
    const messages = streamed.body as Json[];
    assert.ok(messages.some((message) => message.method === 'notifications/progress'));
    assert.match(messages.at(-1).result.content[0].text, /56,088/);
  });

  it('refuses a 2026-07-28 POST whose headers disagree with its body with 400 -32020', async () => {
    const cases: Array<[string, (request: ReturnType<typeof stateless>) => void]> = [
      ['no Mcp-Method', (request) => delete request.headers['mcp-method']],
      ['another Mcp-Method', (request) => (request.headers['mcp-method'] = 'tools/list')],
      ['another Mcp-Name', (request) => (request.headers['mcp-name'] = 'search_knowledge')],
      ['no Mcp-Name', (request) => delete request.headers['mcp-name']],
      ['no _meta revision', (request) => (request.body.params._meta = {})],
      [
        'another _meta revision',
        (request) =>
          (request.body.params._meta = { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
      ],
    ];
    for (const [what, spoil] of cases) {
      const request = stateless('tools/call', { name: 'ask', arguments: { message: 'hi' } });
      spoil(request);
      const refused = await post(url, request.body, request.headers);
      assert.equal(refused.status, 400, what);
      assert.equal(refused.body.error.code, -32020, what);
      assert.equal(refused.body.id, 7, what);
    }
  });

  it('refuses another MCP-Protocol-Version with 400 -32022 listing the revisions served', async () => {
    for (const method of ['POST', 'DELETE']) {
      const response = await fetch(`${url}/mcp`, {
        method,
        headers: { ...accept, ...auth('key-a'), 'mcp-protocol-version': '2024-11-05' },
        ...(method === 'POST' ? { body: JSON.stringify(listTools) } : {}),
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as Json;
      assert.equal(body.error.code, -32022);
      assert.deepEqual(body.error.data.supported, [
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
      ]);
    }
  });

  it('answers GET /mcp with 405', async () => {
    const response = await fetch(`${url}/mcp`, { headers: auth('key-a') });
    assert.equal(response.status, 405);
  });
});

describe('MCP sessions of two yeoul serve instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let a: ServeProcess;
  let b: ServeProcess;
  before(async () => {
    database = await startPostgresServer();
    const env = { ...keys, DATABASE_URL: await database.createDatabase() };
    a = await startServeProcess(join(root, 'a'), env, ['--no-sample']);
    b = await startServeProcess(join(root, 'b'), env, ['--no-sample']);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await database?.stop();
  });

  it('serves on instance B a session initialized on instance A, and ends it for both', async () => {
    const onA = await sdkClient(a.url, 'key-a');
    const sessionId = onA.transport.sessionId as string;
    const onB = await sdkClient(b.url, 'key-a', sessionId);
    assert.equal(onB.transport.sessionId, sessionId);
    assert.equal((await onB.client.listTools()).tools.length, 2);
    const foreign = await post(b.url, listTools, { ...auth('key-b'), 'mcp-session-id': sessionId });
    assert.equal(foreign.status, 404);
    await onB.transport.terminateSession();
    const ended = await post(a.url, listTools, { ...auth('key-a'), 'mcp-session-id': sessionId });
    assert.equal(ended.status, 404);
    assert.equal(ended.body.error.code, -32001);
    await onA.client.close();
    await onB.client.close();
  });
});
