import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  type FakeChatProvider,
  type FakeChatTurn,
  startFakeAnthropic,
  startFakeAzureOpenAi,
  startFakeBedrock,
  startFakeGemini,
  startFakeOllama,
} from '../testing/internal/index.ts';
import type { ChatModel } from './chat-model.ts';
import { ModelCallError } from './errors/model-call-error.ts';
import { readModelConfig } from './model-config.ts';
import { resolveModel } from './resolve-model.ts';
import type { ModelTool } from './types.ts';

const fakes: FakeChatProvider[] = [];
after(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});

const calculator: ModelTool = {
  name: 'calculator',
  description: 'Evaluates a math expression',
  inputSchema: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
  },
};
const question = [{ role: 'user' as const, content: '123 * 456 계산해줘' }];
const aws = { accessKeyId: 'AKIAFAKEYEOUL0000001', secretAccessKey: 'fake/secret+key' };
const googleKey = 'AIza-fake-yeoul';
const azureKey = 'azure-fake-key';

/** The same checks for each provider that has its own wire format (not OpenAI's chat). */
const providers: Array<{
  name: 'anthropic' | 'ollama' | 'bedrock' | 'google' | 'azure';
  start: (script: FakeChatTurn[]) => Promise<FakeChatProvider>;
  env: (fake: FakeChatProvider) => Record<string, string>;
  toolsOf: (body: Record<string, unknown>) => unknown;
  /** Where the tool's result went in a request's body. */
  messagesOf: (body: Record<string, unknown>) => unknown;
}> = [
  {
    name: 'anthropic',
    start: startFakeAnthropic,
    env: (fake) => ({
      YEOUL_MODEL: 'anthropic:claude-test',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: `${fake.baseUrl}/v1`,
    }),
    toolsOf: (body) => body.tools,
    messagesOf: (body) => body.messages,
  },
  {
    name: 'ollama',
    start: startFakeOllama,
    env: (fake) => ({ YEOUL_MODEL: 'ollama:llama-test', OLLAMA_BASE_URL: fake.baseUrl }),
    toolsOf: (body) => body.tools,
    messagesOf: (body) => body.messages,
  },
  {
    name: 'bedrock',
    start: (script) => startFakeBedrock(script, aws),
    env: (fake) => ({
      YEOUL_MODEL: 'bedrock:anthropic.claude-3-5-haiku-20241022-v1:0',
      AWS_REGION: 'ap-northeast-2',
      AWS_ACCESS_KEY_ID: aws.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.secretAccessKey,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.baseUrl,
    }),
    toolsOf: (body) => (body.toolConfig as { tools: unknown }).tools,
    messagesOf: (body) => body.messages,
  },
  {
    name: 'google',
    start: (script) => startFakeGemini(script, googleKey),
    env: (fake) => ({
      YEOUL_MODEL: 'google:gemini-test',
      GOOGLE_GENERATIVE_AI_API_KEY: googleKey,
      GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.baseUrl}/v1beta`,
    }),
    toolsOf: (body) => body.tools,
    messagesOf: (body) => body.contents,
  },
  {
    name: 'azure',
    start: (script) => startFakeAzureOpenAi(script, azureKey),
    env: (fake) => ({
      YEOUL_MODEL: 'azure:gpt-deployment',
      AZURE_API_KEY: azureKey,
      AZURE_BASE_URL: `${fake.baseUrl}/openai/v1`,
    }),
    toolsOf: (body) => body.tools,
    messagesOf: (body) => body.input,
  },
];

for (const provider of providers) {
  async function modelFor(
    script: FakeChatTurn[],
  ): Promise<{ model: ChatModel; fake: FakeChatProvider }> {
    const fake = await provider.start(script);
    fakes.push(fake);
    const model = resolveModel(readModelConfig(provider.env(fake)), {
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 2000,
      timeoutMs: 2000,
    });
    return { model, fake };
  }

  describe(`${provider.name} over its own wire format`, () => {
    it('answers a plain call, with the usage the server reported', async () => {
      const { model, fake } = await modelFor([
        { kind: 'text', text: '안녕하세요, 무엇을 도와드릴까요?' },
      ]);
      const result = await model.call({ system: '당신은 도우미입니다.', messages: question });
      assert.equal(result.text, '안녕하세요, 무엇을 도와드릴까요?');
      assert.equal(result.usage.estimated, false);
      assert.ok(result.usage.inputTokens > 0 && result.usage.outputTokens > 0);
      assert.equal(fake.bodies().length, 1);
    });

    it('streams text as deltas', async () => {
      const { model } = await modelFor([{ kind: 'text', text: 'one two three four' }]);
      const deltas: string[] = [];
      const result = await model.call({
        messages: question,
        onTextDelta: (delta) => deltas.push(delta),
      });
      assert.equal(result.text, 'one two three four');
      assert.ok(deltas.length >= 4, `deltas: ${JSON.stringify(deltas)}`);
      assert.equal(deltas.join(''), 'one two three four');
    });

    it('sends the tools and returns the tool call, plain and streamed', async () => {
      const turn: FakeChatTurn = {
        kind: 'tool-call',
        name: 'calculator',
        input: { expression: '123 * 456' },
      };
      const { model, fake } = await modelFor([turn]);
      for (const onTextDelta of [undefined, () => undefined]) {
        const result = await model.call({
          messages: question,
          tools: [calculator],
          ...(onTextDelta ? { onTextDelta } : {}),
        });
        assert.equal(result.toolCalls.length, 1);
        assert.equal(result.toolCalls[0]?.name, 'calculator');
        assert.deepEqual(result.toolCalls[0]?.args, { expression: '123 * 456' });
      }
      const sent = JSON.stringify(provider.toolsOf(fake.bodies()[0] as Record<string, unknown>));
      assert.match(sent, /calculator/);
      assert.match(sent, /expression/);
    });

    it('round-trips a tool call: the result goes back and the answer comes', async () => {
      const { model, fake } = await modelFor([
        { kind: 'tool-call', name: 'calculator', input: { expression: '123 * 456' } },
        { kind: 'text', text: '123 × 456 = 56088' },
      ]);
      const first = await model.call({ messages: question, tools: [calculator] });
      const call = first.toolCalls[0];
      assert.ok(call);
      const result = await model.call({
        messages: [
          ...question,
          { role: 'assistant', content: '', toolCalls: [call] },
          { role: 'tool', content: '56088', toolCallId: call.id, name: 'calculator' },
        ],
        tools: [calculator],
        onTextDelta: () => undefined,
      });
      assert.equal(result.text, '123 × 456 = 56088');
      const sent = JSON.stringify(provider.messagesOf(fake.bodies()[1] as Record<string, unknown>));
      assert.match(sent, /56088/, 'the tool result is in the second request');
      assert.ok(sent.includes(call.id) || provider.name === 'google' || provider.name === 'ollama');
    });

    it('retries a rate limit, then answers', async () => {
      const { model, fake } = await modelFor([
        { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '0' } },
        { kind: 'text', text: 'done' },
      ]);
      const result = await model.call({ messages: question });
      assert.equal(result.text, 'done');
      assert.equal(result.attempts, 2);
      assert.equal(fake.bodies().length, 2);
    });

    it('does not retry a bad request, and says what the server said', async () => {
      const { model, fake } = await modelFor([
        { kind: 'error', status: 400, message: 'model "x" does not exist' },
      ]);
      await assert.rejects(model.call({ messages: question }), (error: unknown) => {
        assert.ok(error instanceof ModelCallError);
        assert.equal(error.status, 400);
        assert.equal(error.attempts, 1);
        assert.match(error.message, /does not exist/);
        return true;
      });
      assert.equal(fake.bodies().length, 1);
    });
  });
}

describe('anthropic authentication', () => {
  it('sends the key as x-api-key and never retries a refused one', async () => {
    const fake = await startFakeAnthropic([{ kind: 'text', text: 'ok' }]);
    fakes.push(fake);
    const model = resolveModel(
      readModelConfig({
        YEOUL_MODEL: 'anthropic:claude-test',
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: `${fake.baseUrl}/v1`,
      }),
    );
    await model.call({ messages: question });
    assert.equal(fake.server.requests[0]?.headers['x-api-key'], 'sk-ant-test');
  });

  it('refuses a base URL that is not a URL, at configuration', () => {
    assert.throws(
      () =>
        readModelConfig({
          YEOUL_MODEL: 'anthropic:claude-test',
          ANTHROPIC_API_KEY: 'k',
          ANTHROPIC_BASE_URL: 'nope',
        }),
      /ANTHROPIC_BASE_URL is not a URL/,
    );
  });
});
