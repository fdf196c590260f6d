import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import type { GraphKit } from '../src/agents/index.ts';
import type { YeoulConfig } from '../src/config/index.ts';
import { END, START, StateGraph } from '../src/graph/index.ts';
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

const root = mkdtempSync(join(tmpdir(), 'yeoul-responses-guarded-'));
after(() => rmSync(root, { recursive: true, force: true }));

const card = '4111 1111 1111 1111';

/** "card" → an answer that streams a card number (blocked at output); otherwise an echo. */
function answers(request: ChatCompletionRequest): FakeCompletion {
  const text = String(request.body.messages.at(-1)?.content ?? '');
  if (text.includes('card')) {
    return {
      kind: 'text',
      text: `테스트 카드는 ${card} 입니다`,
      chunks: ['테스트 카드는 ', '4111 11', '11 1111 1111 ', '입니다'],
    };
  }
  return { kind: 'text', text: `answer: ${text}` };
}

const config: YeoulConfig = {
  graphs: {
    // A graph whose node calls the model itself: its answer is checked at the run's end.
    direct: (kit: GraphKit) =>
      new StateGraph(kit.chatState)
        .addNode('answer', async (state, context) => {
          const answer = await kit.model.call({ messages: state.messages, signal: context.signal });
          return { messages: [{ role: 'assistant' as const, content: answer.text }] };
        })
        .addEdge(START, 'answer')
        .addEdge('answer', END),
  },
  guardrails: { output: [pii()] },
};

describe('OpenAI Responses on graphs with output guardrails', () => {
  let model: FakeOpenAiServer;
  let server: RunningServer;
  let client: OpenAI;

  before(async () => {
    model = await startFakeOpenAiServer(answers);
    ({ server } = await startTestServer(
      mkdtempSync(join(root, 'data-')),
      {
        YEOUL_MODEL: 'compat:scripted',
        YEOUL_COMPAT_BASE_URL: model.baseUrl,
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
      },
      { config },
    ));
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  /** One streamed response: its events, and the text its deltas carried. */
  const streamed = async (body: Record<string, unknown>) => {
    const stream = (await client.responses.create({
      ...body,
      stream: true,
    } as never)) as unknown as AsyncIterable<Json>;
    const events: Json[] = [];
    for await (const event of stream) events.push(event);
    const sent = events
      .filter((event) => event.type === 'response.output_text.delta')
      .map((event) => event.delta)
      .join('');
    return { events, sent, last: events.at(-1) };
  };

  for (const graph of ['react', 'direct']) {
    it(`never streams a blocked answer's text: the refusal is the answer (${graph})`, async () => {
      const { events, sent, last } = await streamed({
        model: `yeoul-${graph}`,
        input: 'show me a test card',
      });
      assert.ok(!/4111|테스트 카드/.test(sent), `nothing of the blocked answer: ${sent}`);
      const stored = (await (
        await fetch(`${server.url}/api/sessions/${last.response.conversation.id}`)
      ).json()) as Json;
      const refusal = stored.messages.at(-1);
      assert.equal(refusal.blocked, true);
      assert.equal(sent, refusal.content);
      assert.equal(last.response.output[0].id, refusal.id);
      for (const event of events.filter((event) => 'item_id' in event)) {
        assert.equal(event.item_id, refusal.id, event.type);
      }
    });
  }

  it('never streams a blocked answer’s text with store: false either', async () => {
    const { sent, last } = await streamed({
      model: 'yeoul-react',
      input: 'show me a test card',
      store: false,
    });
    assert.ok(!/4111|테스트 카드/.test(sent), `nothing of the blocked answer: ${sent}`);
    assert.equal(sent, last.response.output[0].content[0].text);
  });

  it('sends an answer the guardrails let through as stored', async () => {
    const { sent, last } = await streamed({ model: 'yeoul-react', input: 'hello there' });
    assert.equal(sent, 'answer: hello there');
    assert.equal(last.type, 'response.completed');
    assert.equal(last.response.output[0].content[0].text, sent);
  });
});
