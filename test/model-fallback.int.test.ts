import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import pino from 'pino';
import { envWithConfig, readEnvironment } from '../src/config/index.ts';
import {
  createRuntime,
  type RunningServer,
  readServerConfig,
  startServer,
} from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  echoCompletion,
  type FakeCompletion,
  type FakeOpenAiServer,
  readEvents,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-model-fallback-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A server on `openai:primary` (at `primary`) falling back to `compat:fallback`, its log lines kept. */
async function serveChain(
  primary: FakeOpenAiServer,
  fallback: FakeOpenAiServer,
  env: Record<string, string> = {},
) {
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
      YEOUL_MODEL: 'openai:primary, compat:fallback',
      OPENAI_API_KEY: 'sk-primary-secret-key',
      OPENAI_BASE_URL: primary.baseUrl,
      YEOUL_COMPAT_BASE_URL: fallback.baseUrl,
      ...env,
    }),
  );
  const server = await startServer(runtime, { logger: pino({ level: 'info' }, sink) });
  return { server, lines };
}

async function invoke(server: RunningServer, message: string): Promise<Json> {
  const response = await fetch(`${server.url}/api/agent/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

const status = async (server: RunningServer): Promise<Json> =>
  (await fetch(`${server.url}/api/agent/status`)).json();

/** The fallback: the calculator's result after a tool call, else an echo. */
function fallbackAnswer(request: ChatCompletionRequest): FakeCompletion {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `계산 결과: ${String(last.content)}` };
  return echoCompletion(request);
}

describe('a model chain whose primary starts failing mid-run', () => {
  let primary: FakeOpenAiServer;
  let fallback: FakeOpenAiServer;
  let server: RunningServer;
  let lines: Json[];

  before(async () => {
    // The primary asks for the calculator, then fails: the run's second call moves on.
    primary = await startFakeOpenAiServer((_request, index) =>
      index === 0
        ? {
            kind: 'tool-calls',
            calls: [{ id: 'call-1', name: 'calculator', arguments: '{"expression":"2 + 3"}' }],
          }
        : { kind: 'error', status: 500 },
    );
    fallback = await startFakeOpenAiServer(fallbackAnswer);
    ({ server, lines } = await serveChain(primary, fallback));
  });
  after(async () => {
    await server.close();
    await primary.close();
    await fallback.close();
  });

  it('answers through the fallback and names it as the run’s model', async () => {
    const payload = await invoke(server, '2 + 3 계산해줘');
    assert.equal(payload.status, 'published', JSON.stringify(payload));
    assert.deepEqual(payload.toolsUsed, ['calculator']);
    assert.match(payload.response, /2 \+ 3 = 5/);
    assert.equal(payload.model, 'compat:fallback');
    assert.equal(primary.requests.length, 2, 'one call answered, one failed once');
    assert.equal(fallback.requests.length, 1);
  });

  it('shows the chain in the status: the primary cooling down, the fallback having answered', async () => {
    const body = await status(server);
    assert.equal(body.status, 'ok');
    assert.equal(body.model, 'openai:primary');
    assert.deepEqual(body.fallbacks, ['compat:fallback']);
    const [first, second] = body.models;
    assert.equal(first.model, 'openai:primary');
    assert.equal(first.state, 'cooling-down');
    assert.equal(first.lastError.code, 'model_unavailable');
    assert.ok(Date.parse(first.lastError.at) <= Date.now());
    const until = Date.parse(first.coolingDownUntil);
    assert.ok(until > Date.now() + 25_000 && until <= Date.now() + 30_000, first.coolingDownUntil);
    assert.deepEqual(second, {
      model: 'compat:fallback',
      state: 'ok',
      lastError: null,
      coolingDownUntil: null,
    });
    assert.equal(body.answeredBy.model, 'compat:fallback');
    assert.equal(body.lastModelError.model, 'openai:primary');
  });

  it('counts the move and logs the failure naming the model, without its key', async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(
      metrics,
      /yeoul_model_fallbacks_total\{from="openai:primary",to="compat:fallback"\} 1/,
    );
    assert.match(metrics, /yeoul_errors_total\{code="model_unavailable"\} 1/);
    const warning = lines.find((line) => line.level === 40 && line.model === 'openai:primary');
    assert.equal(warning?.code, 'model_unavailable');
    assert.equal(warning?.next, 'compat:fallback');
    assert.equal(typeof warning?.cause, 'string');
    assert.doesNotMatch(JSON.stringify(lines), /sk-primary-secret-key/);
  });

  it('skips the cooling primary for the next run, and names the model in `done`', async () => {
    const response = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hello again' }),
    });
    const events = await readEvents(response);
    const done = events.at(-1) as Json;
    assert.equal(done.event, 'done');
    assert.equal(done.data.status, 'published');
    assert.equal(done.data.model, 'compat:fallback');
    assert.equal(primary.requests.length, 2, 'not asked while cooling down');
  });
});

describe('a model chain with a cool-down of 0', () => {
  const mode = { primary: 'down', fallback: 'auth' };
  let primary: FakeOpenAiServer;
  let fallback: FakeOpenAiServer;
  let server: RunningServer;

  before(async () => {
    primary = await startFakeOpenAiServer((request) =>
      mode.primary === 'down'
        ? { kind: 'error', status: 500 }
        : mode.primary === 'bad'
          ? { kind: 'error', status: 400, body: { error: { message: 'messages: invalid' } } }
          : echoCompletion(request),
    );
    fallback = await startFakeOpenAiServer((request) =>
      mode.fallback === 'auth' ? { kind: 'error', status: 401 } : echoCompletion(request),
    );
    ({ server } = await serveChain(primary, fallback, { YEOUL_MODEL_COOLDOWN_MS: '0' }));
  });
  after(async () => {
    await server.close();
    await primary.close();
    await fallback.close();
  });

  it('ends in the error answer with the last model’s code when no model answers', async () => {
    const payload = await invoke(server, 'Hello there');
    assert.equal(payload.status, 'error');
    assert.equal(payload.errorCode, 'model_auth_failed');
    assert.equal('model' in payload, false, 'no model call succeeded');
    const body = await status(server);
    assert.equal(body.status, 'degraded');
    assert.equal(body.answeredBy, null);
    assert.deepEqual(
      body.models.map((link: Json) => [link.state, link.lastError?.code, link.coolingDownUntil]),
      [
        ['failing', 'model_unavailable', null],
        ['failing', 'model_auth_failed', null],
      ],
    );
  });

  it('tries the primary on every call, and is ok again once a model answers', async () => {
    mode.fallback = 'ok';
    const before = primary.requests.length;
    for (const message of ['one', 'two']) {
      assert.equal((await invoke(server, message)).model, 'compat:fallback');
    }
    assert.equal(primary.requests.length, before + 2);
    const body = await status(server);
    assert.equal(body.status, 'ok');
    assert.equal(body.models[0].state, 'failing');
    assert.equal(body.answeredBy.model, 'compat:fallback');
  });

  it('never moves a refused request (400) on: the run ends with its code', async () => {
    mode.primary = 'bad';
    const asked = fallback.requests.length;
    const payload = await invoke(server, 'Hello there');
    assert.equal(payload.errorCode, 'model_bad_request');
    assert.equal(fallback.requests.length, asked);
    assert.equal((await status(server)).status, 'degraded');
    mode.primary = 'ok';
    assert.equal((await invoke(server, 'Hello there')).model, 'openai:primary');
    assert.equal((await status(server)).models[0].state, 'ok');
  });
});

describe('a model chain in the config file', () => {
  it('takes an array of AI SDK objects and strings, with its cool-down; the environment wins', async () => {
    const primary = await startFakeOpenAiServer([{ kind: 'error', status: 503 }]);
    const fallback = await startFakeOpenAiServer(echoCompletion);
    const config = {
      models: {
        default: [
          createOpenAICompatible({ name: 'lab', baseURL: primary.baseUrl }).chatModel('one'),
          'compat:two',
        ],
        cooldownMs: 5000,
      },
    };
    const env = envWithConfig(
      {
        YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
        PORT: '0',
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_COMPAT_BASE_URL: fallback.baseUrl,
      },
      config,
    );
    assert.equal(env.YEOUL_MODEL, undefined, 'a chain holding an object is no environment value');
    assert.equal(env.YEOUL_MODEL_COOLDOWN_MS, '5000');
    const runtime = await createRuntime(readServerConfig(env), {
      userConfig: { path: join(root, 'yeoul.config.ts'), config, files: [], loadedAt: new Date() },
    });
    const server = await startServer(runtime, { logger: false });
    try {
      assert.equal((await invoke(server, 'Hello there')).model, 'compat:two');
      const body = await status(server);
      assert.equal(body.model, 'lab.chat:one');
      assert.deepEqual(body.fallbacks, ['compat:two']);
      const until = Date.parse(body.models[0].coolingDownUntil);
      assert.ok(until > Date.now() + 4000 && until <= Date.now() + 5000);
    } finally {
      await server.close();
      await primary.close();
      await fallback.close();
    }
    const strings = envWithConfig(
      { YEOUL_MODEL_COOLDOWN_MS: '10' },
      { models: { default: ['openai:a', 'ollama:b'], cooldownMs: 5000 } },
    );
    assert.equal(strings.YEOUL_MODEL, 'openai:a,ollama:b');
    assert.equal(strings.YEOUL_MODEL_COOLDOWN_MS, '10');
  });
});

describe('a model chain of one agent in the config file', () => {
  it('answers that agent’s calls through its own chain', async () => {
    const primary = await startFakeOpenAiServer([{ kind: 'error', status: 502 }]);
    const fallback = await startFakeOpenAiServer(echoCompletion);
    const config = {
      agents: {
        chat: {
          model: [
            createOpenAICompatible({ name: 'lab', baseURL: primary.baseUrl }).chatModel('one'),
            'compat:two',
          ],
        },
      },
    };
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
        PORT: '0',
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_COMPAT_BASE_URL: fallback.baseUrl,
      }),
      {
        userConfig: {
          path: join(root, 'yeoul.config.ts'),
          config,
          files: [],
          loadedAt: new Date(),
        },
      },
    );
    const server = await startServer(runtime, { logger: false });
    try {
      const payload = await invoke(server, 'Hello there');
      assert.equal(payload.status, 'published');
      assert.equal(payload.model, 'compat:two');
      assert.equal(primary.requests.length, 1);
    } finally {
      await server.close();
      await primary.close();
      await fallback.close();
    }
  });
});

describe('a model chain that cannot work', () => {
  it('refuses the start naming every unknown provider and a bad cool-down', () => {
    for (const [cooldown, expected] of [
      ['-1', 'must be a whole number of milliseconds (0 or more)'],
      ['1.5', 'must be a whole number of milliseconds (0 or more)'],
      ['soon', 'must be a whole number of milliseconds (0 or more)'],
    ] as const) {
      assert.throws(
        () =>
          readEnvironment({
            YEOUL_MODEL: 'openai:gpt-4o-mini,gemini:pro,offline,mistral',
            YEOUL_MODEL_COOLDOWN_MS: cooldown,
          }),
        (error: Json) => {
          assert.equal(error.code, 'config_invalid');
          assert.equal(error.environment, true);
          assert.deepEqual(error.problems, [
            `YEOUL_MODEL: names unknown providers "gemini", "mistral"; use openai, anthropic, ollama, compat, bedrock, google, azure, offline as <provider>:<model id>, comma-separated for a fallback chain`,
            `YEOUL_MODEL_COOLDOWN_MS: ${expected}`,
          ]);
          return true;
        },
      );
    }
    assert.equal(readEnvironment({ YEOUL_MODEL_COOLDOWN_MS: '0' }).YEOUL_MODEL_COOLDOWN_MS, 0);
  });

  it('names the missing settings of every provider of the chain', async () => {
    await assert.rejects(
      createRuntime(
        readServerConfig({
          YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
          YEOUL_MODEL: 'openai:gpt-4o-mini,compat:local,',
        }),
      ),
      (error: Json) => {
        assert.equal(error.code, 'model_config');
        assert.match(error.message, /OPENAI_API_KEY is not set/);
        assert.match(error.message, /YEOUL_COMPAT_BASE_URL is not set/);
        assert.match(error.message, /model 3 of the chain\) is empty/);
        return true;
      },
    );
  });
});
