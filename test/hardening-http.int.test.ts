import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import type { RunningServer } from '../src/server/index.ts';
import { readEvents } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-http-hardening-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function serve(env: Record<string, string> = {}) {
  return (await startTestServer(mkdtempSync(join(root, 'data-')), env)).server;
}

function upload(
  url: string,
  files: Array<{ name: string; data: Uint8Array | string }>,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('file', new Blob([file.data as BlobPart]), file.name);
  return fetch(`${url}/api/documents`, { method: 'POST', body: form });
}

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Json,
});

describe('uploads', () => {
  let server: RunningServer;
  before(async () => {
    server = await serve({ YEOUL_SAMPLE_KNOWLEDGE: 'false' });
  });
  after(() => server.close());

  it('names a document after its file, so the same upload twice adds nothing', async () => {
    const text = '# 출장 규정\n\n국내 출장비는 하루 10만원까지 지급합니다.';
    const first = await json(await upload(server.url, [{ name: 'travel.md', data: text }]));
    const second = await json(await upload(server.url, [{ name: 'travel.md', data: text }]));
    assert.equal(first.status, 201);
    assert.deepEqual(first.body.ids, ['travel.md']);
    assert.deepEqual(second.body.ids, ['travel.md']);
    assert.deepEqual(second.body.unchanged, ['travel.md']);
    assert.equal(second.body.chunks, 0);
    const { body } = await json(await fetch(`${server.url}/api/documents`));
    const travel = body.documents.filter((document: Json) => document.title === '출장 규정');
    assert.equal(travel.length, 1);
    assert.doesNotMatch(JSON.stringify(travel[0].metadata), /tmp|yeoul-upload/);
    const hits = await json(
      await fetch(`${server.url}/api/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '출장비', k: 5 }),
      }),
    );
    assert.equal(hits.body.hits.filter((hit: Json) => hit.documentId === 'travel.md').length, 1);
  });

  it('honours id, title and metadata, and refuses other fields', async () => {
    const made = await json(
      await upload(server.url, [{ name: 'a.txt', data: '경비는 30일 안에 청구합니다.' }], {
        id: 'expense-rule',
        title: '경비 청구',
        metadata: JSON.stringify({ team: 'finance' }),
      }),
    );
    assert.deepEqual(made.body.ids, ['expense-rule']);
    const { body } = await json(await fetch(`${server.url}/api/documents`));
    const stored = body.documents.find((document: Json) => document.id === 'expense-rule');
    assert.equal(stored.title, '경비 청구');
    assert.equal(stored.metadata.team, 'finance');
    const refused = await json(
      await upload(server.url, [{ name: 'b.txt', data: 'x' }], { tags: 'nope' }),
    );
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /unknown field "tags"/);
  });

  it('reads EUC-KR/CP949 (똠 included) and UTF-16, refuses Latin-1 and empty files', async () => {
    const korean = '똠방각하의 점심 메뉴는 김치찌개입니다. 뷁 같은 글자도 읽습니다.';
    const cp949 = await json(
      await upload(server.url, [{ name: 'euckr.txt', data: iconv.encode(korean, 'cp949') }]),
    );
    assert.equal(cp949.status, 201, JSON.stringify(cp949.body));
    const utf16 = await json(
      await upload(server.url, [
        {
          name: 'utf16.txt',
          data: Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            Buffer.from('유니코드 열여섯 비트 문서입니다.', 'utf16le'),
          ]),
        },
      ]),
    );
    assert.equal(utf16.status, 201);
    const search = async (query: string) =>
      (
        await json(
          await fetch(`${server.url}/api/search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query }),
          }),
        )
      ).body.hits[0]?.text as string;
    assert.match(await search('똠방각하 점심'), /똠방각하의 점심 메뉴는 김치찌개/);
    assert.match(await search('유니코드 문서'), /유니코드 열여섯 비트/);
    const latin1 = await json(
      await upload(server.url, [
        { name: 'latin1.txt', data: Buffer.from('Café crème brûlée, façade naïve', 'latin1') },
      ]),
    );
    assert.equal(latin1.status, 415);
    assert.equal(latin1.body.error.code, 'unsupported_encoding');
    const empty = await json(await upload(server.url, [{ name: 'empty.txt', data: '' }]));
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.code, 'empty_document');
  });

  it('answers an oversize upload with 413 naming the limit', async () => {
    const big = new Uint8Array(21 * 1024 * 1024).fill(0x61);
    const response = await json(await upload(server.url, [{ name: 'big.txt', data: big }]));
    assert.equal(response.status, 413);
    assert.equal(response.body.error.code, 'payload_too_large');
    assert.match(response.body.error.message, /20 MiB/);
  });
});

describe('errors, limits, request ids and CORS', () => {
  let server: RunningServer;
  before(async () => {
    server = await serve({
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_CORS_ORIGINS: 'https://app.example.com',
      YEOUL_BODY_LIMIT: '2048',
    });
  });
  after(() => server.close());

  it('takes a DELETE with content-type application/json and no body', async () => {
    const response = await fetch(`${server.url}/api/sessions/nobody`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as Json).error.code, 'not_found');
  });

  it('answers framework errors in the contract shape', async () => {
    const long = await json(await fetch(`${server.url}/api/sessions/${'x'.repeat(600)}`));
    assert.ok([400, 414].includes(long.status));
    assert.equal(typeof long.body.error.code, 'string');
    const put = await fetch(`${server.url}/api/documents`, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.match(put.headers.get('allow') ?? '', /GET/);
    assert.equal(((await put.json()) as Json).error.code, 'method_not_allowed');
    const unknown = await json(await fetch(`${server.url}/no/such/thing`));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not_found');
    const media = await json(
      await fetch(`${server.url}/api/search`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: 'a,b',
      }),
    );
    assert.equal(media.status, 415);
    assert.equal(media.body.error.code, 'unsupported_media_type');
    const large = await json(
      await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'a'.repeat(4000) }),
      }),
    );
    assert.equal(large.status, 413);
    assert.match(large.body.error.message, /2 KiB/);
  });

  it('echoes a valid x-request-id and makes one otherwise', async () => {
    const given = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'trace-42' } });
    assert.equal(given.headers.get('x-request-id'), 'trace-42');
    const bad = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'no spaces!' } });
    assert.match(bad.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('answers CORS preflights for the configured origins only', async () => {
    const allowed = await fetch(`${server.url}/api/agent/invoke`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
    const other = await fetch(`${server.url}/api/agent/invoke`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  it('lets browsers send the protocols’ headers and read MCP’s session id', async () => {
    const preflight = await fetch(`${server.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'mcp-session-id,mcp-protocol-version',
      },
    });
    assert.equal(preflight.status, 204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(', ');
    for (const header of [
      'x-api-key',
      'last-event-id',
      'mcp-session-id',
      'mcp-protocol-version',
      'mcp-method',
      'mcp-name',
      'a2a-version',
    ]) {
      assert.ok(allowed.includes(header), `allows ${header}: ${allowed}`);
    }
    assert.equal(
      preflight.headers.get('access-control-allow-methods'),
      'GET, POST, PUT, PATCH, DELETE',
    );
    const initialized = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        origin: 'https://app.example.com',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'browser', version: '1' },
        },
      }),
    });
    assert.equal(initialized.status, 200);
    assert.ok(initialized.headers.get('mcp-session-id'));
    assert.equal(initialized.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.equal(
      initialized.headers.get('access-control-expose-headers'),
      'x-request-id, content-location, location, mcp-session-id',
    );
    await initialized.body?.cancel();
  });
});

describe('answers and documents of the offline model over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await serve();
  });
  after(() => server.close());

  const ask = async (message: string) =>
    (
      await json(
        await fetch(`${server.url}/api/agent/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message }),
        }),
      )
    ).body;

  it('returns sources in invoke and in the stream’s done event', async () => {
    const payload = await ask('병가는 며칠까지 쓸 수 있어?');
    assert.ok(payload.sources.length > 0);
    assert.equal(payload.sources[0].title, '휴가 정책');
    assert.equal(typeof payload.sources[0].chunkId, 'string');
    const stream = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '병가는 며칠까지 쓸 수 있어?' }),
    });
    const done = (await readEvents(stream)).at(-1);
    assert.equal(done?.event, 'done');
    assert.equal((done as Json).data.sources[0].title, '휴가 정책');
    assert.match(done?.id ?? '', /^[\w-]+:\d+$/);
  });

  it('does what the README promises for the slips newcomers found', async () => {
    assert.match((await ask('abc 계산해줘')).response, /Undefined symbol abc/);
    assert.equal((await ask('１２３ * ４５６ 계산해줘')).response, '123 * 456 = 56,088입니다.');
    const days = await ask('연차는 며칠이야?');
    assert.deepEqual(days.toolsUsed, []);
    assert.match(days.response, /연차는 입사 첫해에 15일/);
    const condolence = await ask('경조 휴가는?');
    assert.match(condolence.response, /본인 결혼 5일/);
    assert.doesNotMatch(condolence.response, /병가/);
    assert.equal(
      (await ask('sum(ones(3,000,3,000))')).response,
      'sum(ones(3000,3000)) = 9,000,000.',
    );
    const date = await ask('오늘 며칠이야?');
    assert.match(
      date.response,
      /^지금은 \d{4}년 \d{1,2}월 \d{1,2}일 [가-힣]요일 (?:오전|오후) \d{1,2}:\d{2}입니다 \(Asia\/Seoul\)\.$/,
    );
  });

  it('documents its metrics, operations and docs page for generated clients', async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /# HELP yeoul_http_request_duration_seconds /);
    assert.match(
      metrics,
      /yeoul_http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/agent\/invoke",method="POST"\} \d+/,
    );
    assert.match(metrics, /yeoul_tool_calls_total\{tool="calculator"\} \d+/);
    const openapi = (await json(await fetch(`${server.url}/openapi.json`))).body;
    const operations = Object.values(openapi.paths).flatMap((methods: Json) =>
      Object.values(methods).map((operation: Json) => operation.operationId),
    );
    assert.equal(new Set(operations).size, operations.length, 'operation ids are unique');
    assert.ok(operations.every((id: unknown) => typeof id === 'string'));
    const session = openapi.paths['/api/sessions/{id}'].get;
    assert.deepEqual(
      session.parameters.map((parameter: Json) => [parameter.name, parameter.in]),
      [['id', 'path']],
    );
    assert.ok(session.responses['200'].content['application/json'].schema.properties.interrupts);
    const docs = await fetch(`${server.url}/docs`);
    assert.match(await docs.text(), /swagger-ui-bundle\.js/);
    const bundle = await fetch(`${server.url}/docs/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
  });
});
