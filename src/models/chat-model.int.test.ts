import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { z } from 'zod';
import {
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../testing/internal/index.ts';
import type { ChatModel } from './chat-model.ts';
import { ModelCallError } from './errors/model-call-error.ts';
import { readModelConfig } from './model-config.ts';
import { resolveModel } from './resolve-model.ts';
import type { ModelSettings, ModelTool } from './types.ts';

const fakes: FakeOpenAiServer[] = [];
after(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});

const fast: Partial<ModelSettings> = {
  retryBaseDelayMs: 10,
  retryMaxDelayMs: 2000,
  timeoutMs: 2000,
};

async function modelFor(
  script: FakeCompletion[],
  provider: 'openai' | 'compat' = 'openai',
  settings: Partial<ModelSettings> = fast,
): Promise<{ model: ChatModel; fake: FakeOpenAiServer }> {
  const fake = await startFakeOpenAiServer(script);
  fakes.push(fake);
  const env =
    provider === 'openai'
      ? {
          YEOUL_MODEL: 'openai:gpt-test',
          OPENAI_API_KEY: 'sk-test-secret',
          OPENAI_BASE_URL: fake.baseUrl,
        }
      : {
          YEOUL_MODEL: 'compat:local-model',
          YEOUL_COMPAT_BASE_URL: fake.baseUrl,
          YEOUL_COMPAT_API_KEY: 'compat-key',
        };
  return { model: resolveModel(readModelConfig(env), settings), fake };
}

const calculator: ModelTool = {
  name: 'calculator',
  description: 'Evaluates a math expression.',
  inputSchema: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
    additionalProperties: false,
  },
};

const ask = (content: string) => [{ role: 'user' as const, content }];

for (const provider of ['openai', 'compat'] as const) {
  describe(`chat model over the ${provider} provider (fake chat-completions server)`, () => {
    it('streams text deltas as they arrive and reports usage', async () => {
      const { model, fake } = await modelFor(
        [
          {
            kind: 'text',
            text: '안녕하세요, 무엇을 도와드릴까요?',
            chunks: ['안녕', '하세요, ', '무엇을 ', '도와드릴까요?'],
            usage: { prompt: 42, completion: 9 },
          },
        ],
        provider,
      );
      const deltas: string[] = [];
      const result = await model.call({
        system: 'You are Yeoul.',
        messages: ask('안녕'),
        temperature: 0.3,
        onTextDelta: (text) => deltas.push(text),
      });
      assert.deepEqual(deltas, ['안녕', '하세요, ', '무엇을 ', '도와드릴까요?']);
      assert.equal(result.text, '안녕하세요, 무엇을 도와드릴까요?');
      assert.deepEqual(result.usage, { inputTokens: 42, outputTokens: 9, estimated: false });
      assert.equal(result.attempts, 1);
      const body = fake.requests[0]?.body;
      assert.equal(body?.stream, true);
      assert.equal(body?.temperature, 0.3);
      assert.equal(body?.max_tokens ?? body?.max_completion_tokens, 2000);
      assert.deepEqual(body?.messages[0], { role: 'system', content: 'You are Yeoul.' });
      const auth = fake.requests[0]?.headers.authorization;
      assert.equal(auth, provider === 'openai' ? 'Bearer sk-test-secret' : 'Bearer compat-key');
    });

    it('assembles streamed tool-call argument deltas into tool calls the graph executes', async () => {
      const { model, fake } = await modelFor(
        [
          {
            kind: 'tool-calls',
            calls: [
              { id: 'call_1', name: 'calculator', arguments: '{"expression":"123 * 456"}' },
              { id: 'call_2', name: 'calculator', arguments: '{"expression":"2 ^ 10"}' },
            ],
            argumentPieces: 4,
          },
        ],
        provider,
      );
      const result = await model.call({
        messages: ask('123 * 456 and 2^10?'),
        tools: [calculator],
      });
      assert.deepEqual(result.toolCalls, [
        { id: 'call_1', name: 'calculator', args: { expression: '123 * 456' } },
        { id: 'call_2', name: 'calculator', args: { expression: '2 ^ 10' } },
      ]);
      assert.equal(result.finishReason, 'tool-calls');
      const sent = fake.requests[0]?.body.tools?.[0];
      assert.equal(sent?.function.name, 'calculator');
      assert.deepEqual(sent?.function.parameters, {
        type: 'object',
        properties: { expression: { type: 'string' } },
        required: ['expression'],
        additionalProperties: false,
      });
    });
  });
}

describe('chat model failures and retries', () => {
  it('retries a 429, honouring retry-after-ms, then succeeds', async () => {
    const { model, fake } = await modelFor([
      {
        kind: 'error',
        status: 429,
        headers: { 'retry-after-ms': '300' },
        body: { error: { message: 'Rate limit reached', type: 'rate_limit' } },
      },
      { kind: 'text', text: 'ok' },
    ]);
    const started = performance.now();
    const result = await model.call({ messages: ask('hi') });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 2);
    assert.equal(fake.requests.length, 2);
    assert.ok(performance.now() - started >= 290, 'waited as Retry-After asked');
  });

  it('honours a Retry-After in seconds', async () => {
    const { model } = await modelFor([
      { kind: 'error', status: 503, headers: { 'retry-after': '1' } },
      { kind: 'text', text: 'back' },
    ]);
    const started = performance.now();
    assert.equal((await model.call({ messages: ask('hi') })).text, 'back');
    assert.ok(performance.now() - started >= 950);
  });

  it('gives up after 3 attempts of 500 with a typed error', async () => {
    const { model, fake } = await modelFor([{ kind: 'error', status: 500 }]);
    await assert.rejects(
      model.call({ messages: ask('hi') }),
      (error: unknown) =>
        error instanceof ModelCallError &&
        error.code === 'model_unavailable' &&
        error.reason === 'unavailable' &&
        error.status === 500 &&
        error.attempts === 3,
    );
    assert.equal(fake.requests.length, 3);
  });

  it('does not retry when the server asks to wait longer than allowed', async () => {
    const { model, fake } = await modelFor([
      { kind: 'error', status: 429, headers: { 'retry-after': '3600' } },
    ]);
    await assert.rejects(model.call({ messages: ask('hi') }), {
      reason: 'rate_limited',
      attempts: 1,
    });
    assert.equal(fake.requests.length, 1);
  });

  it('does not retry authentication failures, and never shows the key', async () => {
    const { model, fake } = await modelFor([
      {
        kind: 'error',
        status: 401,
        body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
      },
    ]);
    await assert.rejects(model.call({ messages: ask('hi') }), (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.reason, 'auth');
      assert.equal(error.attempts, 1);
      assert.doesNotMatch(error.message, /sk-test-secret/);
      return true;
    });
    assert.equal(fake.requests.length, 1);
  });

  it('names each failure with its contract code and retries only what may pass', async () => {
    const cases: Array<[FakeCompletion, string, number]> = [
      [{ kind: 'error', status: 401 }, 'model_auth_failed', 1],
      [{ kind: 'error', status: 403 }, 'model_auth_failed', 1],
      [
        {
          kind: 'error',
          status: 400,
          body: { error: { message: 'messages: bad', type: 'invalid_request_error' } },
        },
        'model_bad_request',
        1,
      ],
      [{ kind: 'error', status: 429 }, 'model_rate_limited', 3],
      [{ kind: 'error', status: 503 }, 'model_unavailable', 3],
    ];
    for (const [reply, code, attempts] of cases) {
      const { model, fake } = await modelFor([reply]);
      await assert.rejects(model.call({ messages: ask('hi') }), { code, attempts });
      assert.equal(fake.requests.length, attempts, code);
      assert.equal(model.health.lastError?.code, code);
      assert.equal(model.health.failing, true);
    }
  });

  it('calls a closed port unreachable, after its retries', async () => {
    const { model, fake } = await modelFor([{ kind: 'text', text: 'never' }]);
    await fake.close();
    await assert.rejects(model.call({ messages: ask('hi') }), {
      code: 'model_unreachable',
      attempts: 3,
    });
    assert.match(model.health.lastError?.message ?? '', /ECONNREFUSED/);
  });

  it('refuses a history with a tool call but no result as a bad request, without retrying', async () => {
    const { model, fake } = await modelFor([{ kind: 'text', text: 'never' }]);
    const history = [
      { role: 'user' as const, content: 'write a file' },
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: 'call-1', name: 'calculator', args: { expression: '1+1' } }],
      },
      { role: 'user' as const, content: 'and now?' },
    ];
    const started = performance.now();
    await assert.rejects(model.call({ messages: history, tools: [calculator] }), {
      code: 'model_bad_request',
      attempts: 1,
    });
    assert.ok(performance.now() - started < 2_000, 'no backoff');
    assert.ok(fake.requests.length <= 1);
  });

  it('remembers the last success after a failure', async () => {
    const { model } = await modelFor([
      { kind: 'error', status: 401 },
      { kind: 'text', text: 'ok' },
    ]);
    await assert.rejects(model.call({ messages: ask('hi') }));
    assert.equal(model.health.failing, true);
    await model.call({ messages: ask('hi') });
    assert.equal(model.health.failing, false);
    assert.equal(model.health.lastError?.code, 'model_auth_failed');
  });

  it('times out a server that never answers, retrying each attempt', async () => {
    const { model, fake } = await modelFor([{ kind: 'hang' }], 'openai', {
      ...fast,
      timeoutMs: 150,
    });
    const started = performance.now();
    await assert.rejects(model.call({ messages: ask('hi') }), { reason: 'timeout', attempts: 3 });
    assert.equal(fake.requests.length, 3);
    assert.ok(performance.now() - started < 5_000);
  });

  it('retries a malformed response body and fails with a typed error when it stays broken', async () => {
    for (const streamed of [false, true]) {
      const { model, fake } = await modelFor([{ kind: 'malformed' }]);
      const onTextDelta = streamed ? () => undefined : undefined;
      await assert.rejects(
        model.call({ messages: ask('hi'), ...(onTextDelta ? { onTextDelta } : {}) }),
        (error: unknown) => {
          assert.ok(error instanceof ModelCallError);
          assert.ok(['invalid_response', 'network'].includes(error.reason), error.reason);
          return true;
        },
      );
      assert.equal(fake.requests.length, 3, 'retried');
    }
  });

  it('does not retry a stream cut after text was already delivered', async () => {
    const { model, fake } = await modelFor([
      { kind: 'truncated', text: 'one two three four five six' },
    ]);
    const deltas: string[] = [];
    await assert.rejects(
      model.call({ messages: ask('hi'), onTextDelta: (text) => deltas.push(text) }),
      (error: unknown) => error instanceof ModelCallError && error.attempts === 1,
    );
    assert.ok(deltas.length > 0);
    assert.equal(fake.requests.length, 1);
  });

  it('stops at once when the caller cancels', async () => {
    const { model } = await modelFor([{ kind: 'hang' }], 'openai', { ...fast, timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client went away')), 50);
    const started = performance.now();
    await assert.rejects(
      model.call({ messages: ask('hi'), signal: controller.signal }),
      /client went away/,
    );
    // Long before the 10 s timeout.
    assert.ok(performance.now() - started < 5_000);
  });
});

describe('structured output', () => {
  it('returns a validated object of the asked schema', async () => {
    const { model, fake } = await modelFor([
      { kind: 'text', text: '{"route":"rag","reason":"asks about policy"}' },
    ]);
    const schema = z.object({ route: z.enum(['rag', 'agent']), reason: z.string() });
    const result = await model.generateObject(schema, { messages: ask('휴가 정책?') });
    assert.deepEqual(result.object, { route: 'rag', reason: 'asks about policy' });
    assert.ok(fake.requests[0]?.body.response_format, 'asked the server for JSON');
  });

  it('fails with invalid_response when the model returns an object of the wrong shape', async () => {
    const { model } = await modelFor([{ kind: 'text', text: '{"route":"somewhere"}' }]);
    const schema = z.object({ route: z.enum(['rag', 'agent']), reason: z.string() });
    await assert.rejects(model.generateObject(schema, { messages: ask('x') }), {
      reason: 'invalid_response',
    });
  });
});

describe('token budget in calls', () => {
  it('drops the oldest history so the input fits, keeping the current message', async () => {
    const { model, fake } = await modelFor([{ kind: 'text', text: 'ok' }], 'openai', {
      ...fast,
      maxInputTokens: 200,
    });
    const history = Array.from({ length: 30 }, (_, index) => ({
      role: (index % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
      content: `message number ${index} with some filler words to take up space`,
    }));
    const result = await model.call({
      messages: [...history, { role: 'user', content: 'the current question' }],
    });
    const sent = fake.requests[0]?.body.messages ?? [];
    assert.ok(result.droppedMessages > 0);
    assert.equal(sent.length, 31 - result.droppedMessages);
    assert.equal(sent.at(-1)?.content, 'the current question');
  });

  it('refuses a single message over the limit with input_too_long, without calling the model', async () => {
    const { model, fake } = await modelFor([{ kind: 'text', text: 'ok' }], 'openai', {
      ...fast,
      maxInputTokens: 100,
    });
    await assert.rejects(model.call({ messages: ask('word '.repeat(500)) }), {
      code: 'input_too_long',
      limit: 100,
    });
    assert.equal(fake.requests.length, 0);
  });
});
