import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { createRuntime, readServerConfig, startServer } from '../src/server/index.ts';
import {
  closedPortUrl,
  type FakeCompletion,
  readEvents,
  startFakeHttpServer,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-model-failures-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A server on a model at `baseUrl`, with its log lines kept. */
async function serveWithModel(baseUrl: string) {
  const lines: Json[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const runtime = await createRuntime(
    readServerConfig({
      YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
      PORT: '0',
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_MODEL: 'compat:failing',
      YEOUL_COMPAT_BASE_URL: baseUrl,
      YEOUL_COMPAT_API_KEY: 'sk-secret-key-that-must-not-leak',
    }),
  );
  const server = await startServer(runtime, { logger: pino({ level: 'info' }, sink) });
  return { server, lines };
}

const cases: Array<{
  name: string;
  reply?: FakeCompletion;
  code: string;
  korean: RegExp;
  attempts: number;
}> = [
  {
    name: 'a refused key (401)',
    reply: {
      kind: 'error',
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-secret-key-that-must-not-leak' } },
    },
    code: 'model_auth_failed',
    korean: /인증을 거부/,
    attempts: 1,
  },
  {
    name: 'a closed port',
    code: 'model_unreachable',
    korean: /서버에 연결할 수 없어/,
    attempts: 3,
  },
  {
    name: 'rate limiting that outlasts the retries (429)',
    reply: { kind: 'error', status: 429, headers: { 'retry-after-ms': '20' } },
    code: 'model_rate_limited',
    korean: /사용량 한도/,
    attempts: 3,
  },
  {
    name: 'a refused request (400)',
    reply: {
      kind: 'error',
      status: 400,
      body: { error: { message: 'messages: invalid', type: 'invalid_request_error' } },
    },
    code: 'model_bad_request',
    korean: /요청을 거부/,
    attempts: 1,
  },
];

describe('a model that fails', () => {
  for (const failure of cases) {
    it(`names ${failure.name}: code, answer in the user's language, stream error, log, metric, status`, async () => {
      const fake = failure.reply ? await startFakeOpenAiServer([failure.reply]) : undefined;
      const baseUrl = fake?.baseUrl ?? `${await closedPortUrl()}/v1`;
      const { server, lines } = await serveWithModel(baseUrl);
      try {
        const invoke = await fetch(`${server.url}/api/agent/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: '안녕하세요, 오늘 일정 정리해 줘' }),
        });
        assert.equal(invoke.status, 200);
        const payload = (await invoke.json()) as Json;
        assert.equal(payload.status, 'error');
        assert.equal(payload.error, true);
        assert.equal(payload.errorCode, failure.code);
        assert.match(payload.response, failure.korean);
        assert.doesNotMatch(
          payload.response,
          /[A-Za-z]{4,}/,
          'no English inside the Korean answer',
        );
        if (fake)
          assert.equal(fake.requests.length, failure.attempts, 'retried only if it may pass');

        const stream = await fetch(`${server.url}/api/agent/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Hello, please summarise my day' }),
        });
        const events = await readEvents(stream);
        const names = events.map((event) => event.event);
        assert.deepEqual(names.slice(-2), ['error', 'done']);
        assert.equal((events.at(-2) as Json).data.code, failure.code);
        assert.doesNotMatch(JSON.stringify(events), /sk-secret-key/);
        assert.doesNotMatch((events.at(-1) as Json).data.response, /[가-힣]/);

        const warnings = lines.filter((line) => line.level === 40 && line.code === failure.code);
        assert.equal(warnings.length, 2, 'one warning line per failed run');
        assert.equal(typeof warnings[0].cause, 'string');
        assert.doesNotMatch(JSON.stringify(lines), /sk-secret-key/);

        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        assert.match(metrics, new RegExp(`yeoul_errors_total\\{code="${failure.code}"\\} 2`));

        const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as Json;
        assert.equal(status.status, 'degraded');
        assert.equal(status.lastModelError.code, failure.code);
        assert.ok(Date.parse(status.lastModelError.at) > Date.now() - 60_000);
        assert.doesNotMatch(status.lastModelError.message, /sk-secret-key/);
      } finally {
        await server.close();
        await fake?.close();
      }
    });
  }
});

describe('a model base URL on a port fetch refuses (a "bad port")', () => {
  it('is refused at start, naming the port and why', async () => {
    await assert.rejects(
      createRuntime(
        readServerConfig({
          YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
          PORT: '0',
          YEOUL_SAMPLE_KNOWLEDGE: 'false',
          YEOUL_MODEL: 'compat:failing',
          YEOUL_COMPAT_BASE_URL: 'http://127.0.0.1:6000/v1',
        }),
      ),
      (error: Error) => {
        assert.equal((error as Json).code, 'model_config');
        assert.match(error.message, /YEOUL_COMPAT_BASE_URL .*port 6000 is blocked by fetch/);
        assert.match(error.message, /choose another port/);
        return true;
      },
    );
  });

  it('reached through a redirect, is reported as unreachable at once, not retried', async () => {
    const proxy = await startFakeHttpServer(() => ({
      kind: 'json',
      status: 307,
      body: {},
      headers: { location: 'http://127.0.0.1:6665/v1/chat/completions' },
    }));
    const { server, lines } = await serveWithModel(`${proxy.url}/v1`);
    try {
      const invoke = await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hello there' }),
      });
      const payload = (await invoke.json()) as Json;
      assert.equal(payload.status, 'error');
      assert.equal(payload.errorCode, 'model_unreachable');
      assert.equal(proxy.requests.length, 1, 'a blocked port is never retried');
      const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as Json;
      assert.match(status.lastModelError.message, /after 1 attempt: unreachable: .*bad port/);
      const warning = lines.find((line) => line.code === 'model_unreachable');
      assert.match(String(warning?.cause), /bad port/);
    } finally {
      await server.close();
      await proxy.close();
    }
  });
});
