import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import type { RunningServer } from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-v1-scripted-'));
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

/** A model that calls write_file when asked to write, and answers from tool results. */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const messages = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `done: ${String(last.content)}` };
  const text = String(last?.content ?? '');
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) {
    return {
      kind: 'tool-calls',
      calls: [
        {
          id: `w-${index}`,
          name: 'write_file',
          arguments: JSON.stringify({ path: file, content: 'hi' }),
        },
      ],
    };
  }
  return { kind: 'text', text: `answer to: ${text}` };
}

describe('OpenAI-compatible API with a scripted model', () => {
  let model: FakeOpenAiServer;
  let server: RunningServer;
  let dataDir: string;
  let client: OpenAI;
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
    ({ server, dataDir } = await serve({
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_MAX_OUTPUT_TOKENS: '500',
    }));
    client = openai(server);
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  it('hands temperature and max_tokens to the model, never above the configured output cap', async () => {
    await client.chat.completions.create({
      model: 'yeoul-chat',
      temperature: 0.3,
      max_tokens: 7,
      messages: [{ role: 'user', content: 'short please' }],
    });
    const sent = model.requests.at(-1)?.body;
    assert.equal(sent?.temperature, 0.3);
    assert.equal(sent?.max_tokens ?? sent?.max_completion_tokens, 7);
    await client.chat.completions.create({
      model: 'yeoul-chat',
      max_tokens: 100_000,
      messages: [{ role: 'user', content: 'long please' }],
    });
    const capped = model.requests.at(-1)?.body;
    assert.equal(capped?.max_tokens ?? capped?.max_completion_tokens, 500);
  });

  it('passes the earlier messages of a stateless conversation to the model', async () => {
    await client.chat.completions.create({
      model: 'yeoul-chat',
      messages: [
        { role: 'system', content: 'Answer like a pirate.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'second question' },
      ],
    });
    const sent = model.requests
      .at(-1)
      ?.body.messages.map((message) => [message.role, message.content]);
    assert.deepEqual(sent?.slice(-4), [
      ['user', '[Instructions from the client application]\nAnswer like a pirate.'],
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'second question'],
    ]);
  });

  it('answers a run that waits for approval with what waits and how to decide, then resumes over /api', async () => {
    const paused = await client.chat.completions.create({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: 'please write note.txt' }],
    });
    const content = paused.choices[0]?.message.content ?? '';
    assert.equal(paused.choices[0]?.finish_reason, 'stop');
    assert.match(content, /1 tool call \(write_file\) awaits approval/);
    assert.match(content, /POST \/api\/agent\/invoke/);
    const yeoul = (paused as Json).yeoul;
    assert.equal(yeoul.status, 'interrupted');
    assert.equal(yeoul.interrupts[0].tool, 'write_file');
    assert.equal(yeoul.interrupts[0].args.path, 'note.txt');
    assert.ok(yeoul.sessionId, 'a paused stateless run is kept as a session, to be decided');
    assert.match(content, new RegExp(yeoul.sessionId));
    const decided = await fetch(`${server.url}/api/agent/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId: yeoul.sessionId,
        resume: { decisions: [{ id: yeoul.interrupts[0].id, approve: true }] },
      }),
    });
    const payload = (await decided.json()) as Json;
    assert.equal(payload.status, 'published');
    assert.match(payload.response, /^done: /);
    assert.ok(existsSync(join(dataDir, 'workspace', 'note.txt')));
    assert.equal(readFileSync(join(dataDir, 'workspace', 'note.txt'), 'utf8'), 'hi');
  });

  it('streams the approval notice too, and refuses a new message on a paused x-session-id session with 409', async () => {
    const session = openai(server, 'unused', { 'x-session-id': 'v1-paused' });
    const stream = await session.chat.completions.create({
      model: 'yeoul-chat',
      stream: true,
      messages: [{ role: 'user', content: 'please write other.txt' }],
    });
    let text = '';
    let last: Json;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      last = chunk;
    }
    assert.match(text, /awaits approval/);
    assert.equal(last.choices[0].finish_reason, 'stop');
    assert.equal(last.yeoul.interrupts[0].tool, 'write_file');
    const busy = await failure(
      session.chat.completions.create({
        model: 'yeoul-chat',
        messages: [{ role: 'user', content: 'hello?' }],
      }),
    );
    assert.ok(busy instanceof OpenAI.ConflictError);
    assert.equal(busy.code, 'awaiting_approval');
  });
});
