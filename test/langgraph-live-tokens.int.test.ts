import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@langchain/langgraph-sdk';
import { pii } from '../src/guardrails/index.ts';
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

const root = mkdtempSync(join(tmpdir(), 'yeoul-langgraph-live-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The answer the model streams slowly, chunk by chunk. */
const slowChunks = ['하나, ', '둘, ', '셋, ', '넷'];
const card = '4111 1111 1111 1111';

/** Opened by the slow-streaming test: the model's chunks after the first wait for it. */
let streamGate: PromiseWithResolvers<void> = Promise.withResolvers();

/**
 * The scripted model: "slowly" → an answer whose chunks after the first wait for
 * `streamGate`; "card" → an answer that streams a card number; "12 * 3" → the calculator;
 * after a tool result → "result: …"; otherwise an echo.
 */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `result: ${String(last.content)}` };
  const text = String(last?.content ?? '');
  if (text.includes('slowly')) {
    return {
      kind: 'text',
      text: slowChunks.join(''),
      chunks: slowChunks,
      holdRest: streamGate.promise,
    };
  }
  if (text.includes('card')) {
    return {
      kind: 'text',
      text: `테스트 카드는 ${card} 입니다`,
      chunks: ['테스트 카드는 ', '4111 11', '11 1111 1111 ', '입니다'],
    };
  }
  if (text.includes('12 * 3')) {
    const args = JSON.stringify({ expression: '12 * 3' });
    return {
      kind: 'tool-calls',
      calls: [{ id: `c-${index}`, name: 'calculator', arguments: args }],
    };
  }
  return { kind: 'text', text: `echo: ${text}` };
}

/** A server on the scripted model, with `guardrails` in its config. */
async function serve(guardrails: Json = undefined) {
  const model = await startFakeOpenAiServer(scripted);
  const { server } = await startTestServer(
    mkdtempSync(join(root, 'data-')),
    {
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    },
    guardrails === undefined ? {} : { config: { guardrails } },
  );
  return { model, server, client: new Client({ apiUrl: server.url }) };
}

const human = (content: string) => ({ messages: [{ type: 'human', content }] });

/** SSE events of a finished stream's text. */
function parseSse(text: string): Array<{ id: string; event: string; data: Json }> {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? '';
      return { id: field('id'), event: field('event'), data: JSON.parse(field('data')) };
    });
}

describe('LangGraph messages-tuple: the answer’s tokens as they come', () => {
  let model: FakeOpenAiServer;
  let server: RunningServer;
  let client: Client;
  const session = async (id: string): Promise<Json> =>
    (await fetch(`${server.url}/api/sessions/${id}`)).json();

  before(async () => {
    ({ model, server, client } = await serve());
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  it('sends each chunk while the model writes, under the answer’s stored id, once', async () => {
    const thread = await client.threads.create();
    streamGate = Promise.withResolvers();
    let released = false;
    const release = () => {
      released = true;
      streamGate.resolve();
    };
    const timer = setTimeout(release, 3000);
    let beforeTheModelEnded: boolean | undefined;
    const events: Json[] = [];
    for await (const part of client.runs.stream(thread.thread_id, 'react', {
      input: human('answer slowly'),
      streamMode: 'messages-tuple',
    })) {
      events.push(part);
      const chunk = part.event === 'messages' && (part.data as Json)[0].type === 'AIMessageChunk';
      if (chunk && beforeTheModelEnded === undefined) {
        beforeTheModelEnded = !released;
        release();
      }
    }
    clearTimeout(timer);
    assert.equal(beforeTheModelEnded, true, 'the first chunk came while the model was writing');
    const messages = events.filter((part) => part.event === 'messages');
    const chunks = messages.filter((part) => part.data[0].type === 'AIMessageChunk');
    assert.ok(chunks.length > 1, `several chunks (${chunks.length})`);
    assert.deepEqual(
      messages.map((part) => part.data[0].type),
      ['human', ...chunks.map(() => 'AIMessageChunk')],
      'the streamed answer is not sent again',
    );
    const answer = (await session(thread.thread_id)).messages.at(-1);
    assert.equal(answer.content, slowChunks.join(''));
    assert.equal(chunks.map((part) => part.data[0].content).join(''), answer.content);
    for (const part of chunks) {
      assert.equal(part.data[0].id, answer.id);
      assert.equal(part.data[1].langgraph_node, 'llm');
      assert.equal(part.data[1].thread_id, thread.thread_id);
    }
  });

  it('sends the same chunks to a joiner, from any Last-Event-ID', async () => {
    const thread = await client.threads.create();
    const response = await fetch(`${server.url}/threads/${thread.thread_id}/runs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        assistant_id: 'react',
        input: human('what is 12 * 3'),
        stream_mode: ['messages-tuple', 'values'],
      }),
    });
    const live = parseSse(await response.text());
    const location = `${server.url}${response.headers.get('location')}`;
    const again = parseSse(await (await fetch(location)).text());
    assert.deepEqual(
      again.map((event) => [event.id, event.event, event.data]),
      live.map((event) => [event.id, event.event, event.data]),
    );
    const first = live.findIndex((event) => event.event === 'messages');
    const later = parseSse(
      await (await fetch(location, { headers: { 'last-event-id': live[first]?.id ?? '' } })).text(),
    );
    assert.deepEqual(later, live.slice(first + 1));
    const final = live.at(-1);
    assert.equal(final?.event, 'values', 'the last event is the final values');
    const answer = final?.data.messages.at(-1);
    assert.equal(answer.content, 'result: 12 * 3 = 36');
    const messages = live.filter((event) => event.event === 'messages');
    const chunks = messages.filter((event) => event.data[0].type === 'AIMessageChunk');
    assert.equal(chunks.map((event) => event.data[0].content).join(''), answer.content);
    assert.ok(chunks.every((event) => event.data[0].id === answer.id));
    const whole = messages.filter((event) => event.data[0].type !== 'AIMessageChunk');
    assert.deepEqual(
      whole.map((event) => event.data[0].type),
      ['human', 'ai', 'tool'],
      'the tool call and its result, each once, whole',
    );
  });
});

describe('LangGraph messages-tuple on a graph with output guardrails', () => {
  let model: FakeOpenAiServer;
  let server: RunningServer;
  let client: Client;

  before(async () => {
    ({ model, server, client } = await serve({ output: [pii()] }));
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  it('never sends a blocked answer’s text: the refusal is the answer', async () => {
    const thread = await client.threads.create();
    const events: Json[] = [];
    for await (const part of client.runs.stream(thread.thread_id, 'react', {
      input: human('show me a test card'),
      streamMode: ['messages-tuple', 'values'],
    })) {
      events.push(part);
    }
    const sent = events
      .filter((part) => part.event === 'messages' && part.data[0].type !== 'human')
      .map((part) => String(part.data[0].content))
      .join('');
    assert.ok(!/4111|테스트 카드/.test(sent), `nothing of the blocked answer: ${sent}`);
    const refusal = (
      await (await fetch(`${server.url}/api/sessions/${thread.thread_id}`)).json()
    ).messages.at(-1);
    assert.equal(refusal.blocked, true);
    assert.equal(sent, refusal.content);
    assert.equal(events.at(-1).data.messages.at(-1).content, refusal.content);
  });

  it('sends an answer the guardrails let through once its step is stored', async () => {
    const thread = await client.threads.create();
    const events: Json[] = [];
    for await (const part of client.runs.stream(thread.thread_id, 'react', {
      input: human('hello there'),
      streamMode: 'messages-tuple',
    })) {
      events.push(part);
    }
    const chunks = events.filter(
      (part) => part.event === 'messages' && part.data[0].type === 'AIMessageChunk',
    );
    assert.ok(chunks.length >= 1);
    assert.equal(chunks.map((part) => part.data[0].content).join(''), 'echo: hello there');
  });
});
