import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import {
  closedPortUrl,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../testing/internal/index.ts';
import { AnsweringModelScope } from './answering-model.ts';
import type { ChatModel } from './chat-model.ts';
import { chatModelFrom } from './chat-model-from.ts';
import { ModelCallError } from './errors/model-call-error.ts';
import { readModelConfig } from './model-config.ts';
import { resolveModel } from './resolve-model.ts';
import type { ModelSettings } from './types.ts';

const fakes: FakeOpenAiServer[] = [];
after(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});

const fast: Partial<ModelSettings> = {
  retryBaseDelayMs: 10,
  retryMaxDelayMs: 2000,
  timeoutMs: 2000,
};
const ask = (content: string) => [{ role: 'user' as const, content }];
const answer = (text: string): FakeCompletion => ({ kind: 'text', text });

async function fake(script: FakeCompletion[]): Promise<FakeOpenAiServer> {
  const started = await startFakeOpenAiServer(script);
  fakes.push(started);
  return started;
}

/** `openai:primary` at `primaryUrl`, falling back to `compat:fallback` at `fallbackUrl`. */
function chainOf(
  primaryUrl: string,
  fallbackUrl: string,
  options: { cooldownMs?: number; settings?: Partial<ModelSettings> } = {},
): ChatModel {
  const config = readModelConfig({
    YEOUL_MODEL: 'openai:primary,compat:fallback',
    OPENAI_API_KEY: 'sk-test-secret',
    OPENAI_BASE_URL: primaryUrl,
    YEOUL_COMPAT_BASE_URL: fallbackUrl,
    ...(options.cooldownMs === undefined ? {} : { YEOUL_MODEL_COOLDOWN_MS: options.cooldownMs }),
  });
  return resolveModel(config, options.settings ?? fast);
}

/** The fallbacks a model's chain reported, as `from → to`. */
function watchFallbacks(model: ChatModel): string[] {
  const moves: string[] = [];
  model.health.onFallback((from, to) => moves.push(`${from} → ${to}`));
  return moves;
}

const moving: Array<{ name: string; reply: FakeCompletion; code: string }> = [
  {
    name: 'a server error (500)',
    reply: { kind: 'error', status: 500 },
    code: 'model_unavailable',
  },
  {
    name: 'rate limiting (429), whatever Retry-After asks',
    reply: { kind: 'error', status: 429, headers: { 'retry-after': '30' } },
    code: 'model_rate_limited',
  },
  { name: 'a refused key (401)', reply: { kind: 'error', status: 401 }, code: 'model_auth_failed' },
];

describe('a model fallback chain', () => {
  for (const failure of moving) {
    it(`moves on at once after ${failure.name}, asking the primary once`, async () => {
      const primary = await fake([failure.reply]);
      const fallback = await fake([answer('from the fallback')]);
      const model = chainOf(primary.baseUrl, fallback.baseUrl);
      const moves = watchFallbacks(model);
      const started = performance.now();
      const result = await model.call({ messages: ask('hello') });
      assert.ok(performance.now() - started < 1500, 'no retry and no back-off on the primary');
      assert.equal(result.text, 'from the fallback');
      assert.equal(primary.requests.length, 1);
      assert.equal(fallback.requests.length, 1);
      assert.deepEqual(moves, ['openai:primary → compat:fallback']);
      assert.equal(model.health.lastError?.code, failure.code);
      assert.equal(model.health.lastError?.model, 'openai:primary');
      assert.equal(model.health.failing, false, 'a call the fallback answered did not fail');
      assert.equal(model.health.answeredBy?.model, 'compat:fallback');
      assert.equal(model.chain.describe()[0]?.state, 'cooling-down');
    });
  }

  it('moves on when the primary hangs past the time-out, and when it refuses connections', async () => {
    const hanging = await fake([{ kind: 'hang' }]);
    const fallback = await fake([answer('still here')]);
    const slow = chainOf(hanging.baseUrl, fallback.baseUrl, {
      settings: { ...fast, timeoutMs: 300 },
    });
    assert.equal((await slow.call({ messages: ask('hello') })).text, 'still here');
    assert.equal(hanging.requests.length, 1);
    assert.equal(slow.chain.describe()[0]?.lastError?.code, 'model_timeout');

    const refused = chainOf(`${await closedPortUrl()}/v1`, fallback.baseUrl);
    assert.equal((await refused.call({ messages: ask('hello') })).text, 'still here');
    assert.equal(refused.chain.describe()[0]?.lastError?.code, 'model_unreachable');
    assert.equal(fallback.requests.length, 2);
  });

  it('never moves on after a refused request (400): the call fails with its code', async () => {
    const primary = await fake([{ kind: 'error', status: 400 }]);
    const fallback = await fake([answer('unused')]);
    const model = chainOf(primary.baseUrl, fallback.baseUrl);
    await assert.rejects(model.call({ messages: ask('hello') }), (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.code, 'model_bad_request');
      assert.equal(error.model, 'openai:primary');
      return true;
    });
    assert.equal(primary.requests.length, 1);
    assert.equal(fallback.requests.length, 0);
    assert.equal(model.health.failing, true);
    assert.equal(
      model.chain.describe()[0]?.state,
      'failing',
      'not cooling down: it did not move on',
    );
  });

  it('keeps the retries of the last model, and fails with its code when no model answers', async () => {
    const primary = await fake([{ kind: 'error', status: 503 }]);
    const fallback = await fake([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '10' } },
    ]);
    const model = chainOf(primary.baseUrl, fallback.baseUrl);
    await assert.rejects(model.call({ messages: ask('hello') }), {
      code: 'model_rate_limited',
      model: 'compat:fallback',
    });
    assert.equal(primary.requests.length, 1, 'a model with a next one is tried once');
    assert.equal(fallback.requests.length, 3, 'the last one keeps its three attempts');
    assert.equal(model.health.failing, true);
    assert.deepEqual(
      model.chain.describe().map((link) => link.state),
      ['cooling-down', 'failing'],
    );
  });

  it('skips a cooling model until its cool-down ends, then tries it first again', async () => {
    const primary = await fake([{ kind: 'error', status: 500 }, answer('primary is back')]);
    const fallback = await fake([answer('from the fallback')]);
    const model = chainOf(primary.baseUrl, fallback.baseUrl, { cooldownMs: 300 });
    assert.equal((await model.call({ messages: ask('one') })).text, 'from the fallback');
    assert.equal((await model.call({ messages: ask('two') })).text, 'from the fallback');
    assert.equal(primary.requests.length, 1, 'skipped while cooling down');
    const until = model.chain.describe()[0]?.coolingDownUntil ?? 0;
    assert.ok(until > Date.now() && until <= Date.now() + 300);
    await sleep(350);
    assert.equal((await model.call({ messages: ask('three') })).text, 'primary is back');
    assert.equal(primary.requests.length, 2);
    assert.equal(fallback.requests.length, 2);
    assert.equal(model.chain.describe()[0]?.state, 'ok');
    assert.equal(model.health.answeredBy?.model, 'openai:primary');
  });

  it('never skips a model with a cool-down of 0', async () => {
    const primary = await fake([{ kind: 'error', status: 500 }]);
    const fallback = await fake([answer('from the fallback')]);
    const model = chainOf(primary.baseUrl, fallback.baseUrl, { cooldownMs: 0 });
    for (const text of ['one', 'two', 'three']) await model.call({ messages: ask(text) });
    assert.equal(primary.requests.length, 3);
    assert.equal(fallback.requests.length, 3);
    assert.equal(model.chain.describe()[0]?.state, 'failing');
    assert.equal(model.chain.describe()[0]?.coolingDownUntil, null);
  });

  it('moves a stream that failed before its first text, never one that had begun', async () => {
    const fallback = await fake([answer('fallback words')]);
    const refused = await fake([{ kind: 'error', status: 502 }]);
    const deltas: string[] = [];
    const model = chainOf(refused.baseUrl, fallback.baseUrl);
    const result = await model.call({
      messages: ask('hello'),
      onTextDelta: (text) => deltas.push(text),
    });
    assert.equal(result.text, 'fallback words');
    assert.equal(deltas.join(''), 'fallback words');

    const cut = await fake([{ kind: 'truncated', text: 'the primary began to answer and' }]);
    const begun: string[] = [];
    const streaming = chainOf(cut.baseUrl, fallback.baseUrl);
    await assert.rejects(
      streaming.call({ messages: ask('hello'), onTextDelta: (text) => begun.push(text) }),
      { code: 'model_unavailable', model: 'openai:primary' },
    );
    assert.ok(begun.join('').startsWith('the primary'));
    assert.equal(cut.requests.length, 1, 'no retry once text streamed');
    assert.equal(fallback.requests.length, 1, 'not moved to the fallback');
    assert.equal(streaming.chain.describe()[0]?.state, 'failing');
  });

  it('moves structured output (router, judge) as well, and notes the answering model', async () => {
    const primary = await fake([{ kind: 'error', status: 500 }]);
    const fallback = await fake([answer('{"route":"agent","reason":"fine"}')]);
    const model = chainOf(primary.baseUrl, fallback.baseUrl);
    const scope = new AnsweringModelScope();
    const decision = await scope.run(() =>
      model.generateObject(z.object({ route: z.string(), reason: z.string() }), {
        messages: ask('route this'),
      }),
    );
    assert.equal(decision.object.route, 'agent');
    assert.equal(scope.model, 'compat:fallback');
    assert.equal(new AnsweringModelScope().model, undefined);
  });

  it('walks a chain of AI SDK model objects, skipping every cooling model', async () => {
    const servers = await Promise.all([
      fake([{ kind: 'error', status: 500 }]),
      fake([{ kind: 'error', status: 429 }]),
      fake([answer('third')]),
    ]);
    const objects = servers.map((server, index) =>
      createOpenAICompatible({ name: 'lab', baseURL: server.baseUrl }).chatModel(`m${index}`),
    );
    const model = chatModelFrom(objects, { YEOUL_MODEL_COOLDOWN_MS: 60_000 }, fast);
    const moves = watchFallbacks(model);
    assert.equal((await model.call({ messages: ask('one') })).text, 'third');
    assert.equal((await model.call({ messages: ask('two') })).text, 'third');
    assert.deepEqual(
      servers.map((server) => server.requests.length),
      [1, 1, 2],
    );
    assert.deepEqual(moves, ['lab.chat:m0 → lab.chat:m1', 'lab.chat:m1 → lab.chat:m2']);
    assert.deepEqual(
      model.chain.describe().map((link) => link.state),
      ['cooling-down', 'cooling-down', 'ok'],
    );
  });
});
