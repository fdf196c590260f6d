import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import type { RunningServer } from '../src/server/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-v1-'));
after(() => rmSync(root, { recursive: true, force: true }));

const serve = (env: Record<string, string> = {}) =>
  startTestServer(mkdtempSync(join(root, 'data-')), env);

const openai = (server: RunningServer, apiKey = 'unused', headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0, defaultHeaders: headers });

/** The OpenAI client's error for a request that fails. */
async function failure(request: Promise<unknown>): Promise<Json> {
  try {
    await request;
  } catch (error) {
    return error;
  }
  return assert.fail('the request succeeded');
}

describe('OpenAI-compatible API with the official openai client (offline model)', () => {
  let server: RunningServer;
  let runtime: Awaited<ReturnType<typeof serve>>['runtime'];
  let client: OpenAI;
  before(async () => {
    ({ server, runtime } = await serve());
    client = openai(server);
  });
  after(() => server.close());

  it('lists the three graphs as models owned by yeoul', async () => {
    const models = await client.models.list();
    assert.deepEqual(
      models.data.map((model) => [model.id, model.object, model.owned_by]),
      [
        ['yeoul-chat', 'model', 'yeoul'],
        ['yeoul-react', 'model', 'yeoul'],
        ['yeoul-ops', 'model', 'yeoul'],
      ],
    );
  });

  it('answers a chat completion with the agent’s answer, usage and finish_reason stop', async () => {
    const completion = await client.chat.completions.create({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: '123 * 456 계산해줘' }],
    });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, 'yeoul-chat');
    assert.equal(completion.choices[0]?.message.content, '123 * 456 = 56,088입니다.');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.ok((completion.usage?.prompt_tokens ?? 0) > 0);
    assert.equal(
      completion.usage?.total_tokens,
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    const yeoul = (completion as Json).yeoul;
    assert.deepEqual(yeoul.toolsUsed, ['calculator']);
    assert.equal(yeoul.sessionId, null);
  });

  it('runs the react graph as yeoul-react', async () => {
    const completion = await client.chat.completions.create({
      model: 'yeoul-react',
      messages: [{ role: 'user', content: '12 * 12 계산해줘' }],
    });
    assert.equal(completion.choices[0]?.message.content, '12 * 12 = 144입니다.');
    assert.deepEqual((completion as Json).yeoul.steps, ['input', 'llm', 'tool', 'llm', 'response']);
  });

  it('runs the self-checking ops graph as yeoul-ops, streaming its final answer', async () => {
    const stream = await client.chat.completions.create({
      model: 'yeoul-ops',
      stream: true,
      messages: [{ role: 'user', content: '123 * 456 계산해줘' }],
    });
    let text = '';
    let last: Json;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      last = chunk;
    }
    assert.equal(text, '123 * 456 = 56,088입니다.');
    assert.ok(last.yeoul.steps.includes('evaluate'));
  });

  it('streams chat.completion.chunk events: the role, the text, a last chunk with finish_reason and usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'yeoul-chat',
      stream: true,
      messages: [{ role: 'user', content: '123 * 456 계산해줘' }],
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.deepEqual(chunks[0]?.choices[0]?.delta, { role: 'assistant', content: '' });
    assert.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk'));
    assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, '123 * 456 = 56,088입니다.');
    const last = chunks.at(-1);
    assert.equal(last?.choices[0]?.finish_reason, 'stop');
    assert.ok((last?.usage?.completion_tokens ?? 0) > 0);
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.choices[0]?.finish_reason === null));
  });

  it('sends usage in a chunk of its own when stream_options.include_usage asks, and ends with [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'yeoul-chat',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello there' }],
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1);
    assert.deepEqual(last?.choices, []);
    assert.ok((last?.usage?.total_tokens ?? 0) > 0);
    assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
    assert.equal(chunks.at(-2)?.usage, undefined);
    const raw = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'yeoul-chat',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    assert.match(raw.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok((await raw.text()).endsWith('data: [DONE]\n\n'));
  });

  it('treats the messages as the whole conversation without x-session-id, and stores nothing', async () => {
    const threadsBefore = (await runtime.checkpointer.listThreads()).length;
    const completion = await client.chat.completions.create({
      model: 'yeoul-chat',
      messages: [
        { role: 'user', content: '내 이름은 철수야' },
        { role: 'assistant', content: '반가워요, 철수님!' },
        { role: 'user', content: '내 이름이 뭐야?' },
      ],
    });
    assert.match(completion.choices[0]?.message.content ?? '', /철수/);
    const forgetful = await client.chat.completions.create({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: '내 이름이 뭐야?' }],
    });
    assert.doesNotMatch(forgetful.choices[0]?.message.content ?? '', /철수/);
    assert.equal((await runtime.checkpointer.listThreads()).length, threadsBefore);
    const sessions = (await (await fetch(`${server.url}/api/sessions`)).json()) as Json;
    assert.deepEqual(sessions.sessions, []);
  });

  it('remembers a conversation across two calls with x-session-id, sending only the new message', async () => {
    const session = openai(server, 'unused', { 'x-session-id': 'v1-memory' });
    await session.chat.completions.create({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: '내 이름은 영희야' }],
    });
    const second = await session.chat.completions.create({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: '내 이름이 뭐야?' }],
    });
    assert.match(second.choices[0]?.message.content ?? '', /영희/);
    assert.equal((second as Json).yeoul.sessionId, 'v1-memory');
    const stored = (await (await fetch(`${server.url}/api/sessions/v1-memory`)).json()) as Json;
    assert.deepEqual(
      stored.messages
        .filter((message: Json) => message.role === 'user')
        .map((message: Json) => message.content),
      ['내 이름은 영희야', '내 이름이 뭐야?'],
    );
  });

  it('documents /v1 in /openapi.json from the same zod schemas', async () => {
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const create = openapi.paths['/v1/chat/completions'].post;
    const schema = create.requestBody.content['application/json'].schema;
    assert.deepEqual(schema.required, ['model', 'messages']);
    assert.deepEqual(schema.properties.temperature.anyOf[0], {
      type: 'number',
      minimum: 0,
      maximum: 2,
    });
    assert.deepEqual(
      create.parameters.map((parameter: Json) => parameter.name),
      ['x-session-id', 'x-yeoul-on-busy'],
    );
    assert.ok(create.responses['200'].content['text/event-stream']);
    assert.ok(create.responses['400'].content['application/json'].schema.properties.error);
    assert.ok(openapi.paths['/v1/models'].get);
  });

  it('starts a new x-session-id session from the request’s earlier messages, then uses its memory', async () => {
    const session = openai(server, 'unused', { 'x-session-id': 'v1-seeded' });
    const first = await session.chat.completions.create({
      model: 'yeoul-chat',
      messages: [
        { role: 'user', content: '내 이름은 지민이야' },
        { role: 'assistant', content: '반가워요!' },
        { role: 'user', content: '내 이름이 뭐야?' },
      ],
    });
    assert.match(first.choices[0]?.message.content ?? '', /지민/);
    const second = await session.chat.completions.create({
      model: 'yeoul-chat',
      messages: [
        { role: 'user', content: '내 이름은 다른사람이야' },
        { role: 'user', content: '내 이름이 뭐야?' },
      ],
    });
    assert.match(
      second.choices[0]?.message.content ?? '',
      /지민/,
      'the stored memory, not the request, holds the earlier turns',
    );
  });

  it('refuses a request that brings its own tools with 400 unsupported_parameter', async () => {
    const error = await failure(
      client.chat.completions.create({
        model: 'yeoul-chat',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      }),
    );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'unsupported_parameter');
    assert.equal(error.param, 'tools');
    assert.equal(error.type, 'invalid_request_error');
  });

  it('answers mistakes in OpenAI’s error shape and statuses', async () => {
    const unknown = await failure(
      client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    assert.ok(unknown instanceof OpenAI.NotFoundError);
    assert.equal(unknown.code, 'model_not_found');
    const empty = await failure(
      client.chat.completions.create({ model: 'yeoul-chat', messages: [] }),
    );
    assert.ok(empty instanceof OpenAI.BadRequestError);
    assert.equal(empty.code, 'invalid_request');
    assert.equal(empty.param, 'messages');
    const lastNotUser = await failure(
      client.chat.completions.create({
        model: 'yeoul-chat',
        messages: [{ role: 'assistant', content: 'hello' }],
      }),
    );
    assert.match(lastNotUser.message, /the last message must be the user’s/);
    const hot = await failure(
      client.chat.completions.create({
        model: 'yeoul-chat',
        temperature: 3,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    assert.equal(hot.param, 'temperature');
    const image = await failure(
      client.chat.completions.create({
        model: 'yeoul-chat',
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
          },
        ],
      }),
    );
    assert.equal(image.code, 'unsupported_parameter');
    const badSession = await failure(
      openai(server, 'unused', { 'x-session-id': 'no spaces' }).chat.completions.create({
        model: 'yeoul-chat',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    assert.equal(badSession.status, 400);
    assert.equal(badSession.param, 'x-session-id');
    const wrongMethod = await fetch(`${server.url}/v1/chat/completions`);
    assert.equal(wrongMethod.status, 405);
    assert.equal(((await wrongMethod.json()) as Json).error.type, 'invalid_request_error');
    const nowhere = await fetch(`${server.url}/v1/embeddings`, { method: 'POST' });
    assert.equal(nowhere.status, 404);
    assert.deepEqual(Object.keys(((await nowhere.json()) as Json).error).sort(), [
      'code',
      'message',
      'param',
      'type',
    ]);
  });
});

describe('OpenAI-compatible API with API keys', () => {
  let server: RunningServer;
  before(async () => {
    ({ server } = await serve({ YEOUL_API_KEYS: 'key-one,key-two' }));
  });
  after(() => server.close());

  it('answers 401 in OpenAI’s shape without a valid key, and serves a known key', async () => {
    const error = await failure(openai(server, 'wrong-key').models.list());
    assert.ok(error instanceof OpenAI.AuthenticationError);
    assert.equal(error.status, 401);
    assert.equal(error.code, 'invalid_api_key');
    assert.equal(error.type, 'authentication_error');
    const keyless = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'yeoul-chat', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(keyless.status, 401);
    assert.equal(((await keyless.json()) as Json).error.code, 'invalid_api_key');
    const models = await openai(server, 'key-one').models.list();
    assert.equal(models.data.length, 3);
  });

  it('keeps an x-session-id session to the key that made it (another key gets 404)', async () => {
    const owner = openai(server, 'key-one', { 'x-session-id': 'owned' });
    await owner.chat.completions.create({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const stranger = openai(server, 'key-two', { 'x-session-id': 'owned' });
    const error = await failure(
      stranger.chat.completions.create({
        model: 'yeoul-chat',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    assert.ok(error instanceof OpenAI.NotFoundError);
  });
});
