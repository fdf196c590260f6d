import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  type FakeChatProvider,
  type FakeChatTurn,
  readEvents,
  runYeoul,
  startFakeAzureOpenAi,
  startFakeBedrock,
  startFakeGemini,
} from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-cloud-providers-'));
after(() => rmSync(root, { recursive: true, force: true }));

const aws = { accessKeyId: 'AKIAFAKEYEOUL0000002', secretAccessKey: 'another/fake+secret' };

/** The calculator turn: ask for the tool, then answer from its result. */
function calculatorTurn(body: Record<string, unknown>): FakeChatTurn {
  const sent = JSON.stringify(body);
  if (sent.includes('56088') || sent.includes('56,088'))
    return { kind: 'text', text: '123 × 456 = 56,088입니다.' };
  return { kind: 'tool-call', name: 'calculator', input: { expression: '123 * 456' } };
}

const cases: Array<{
  model: string;
  start: () => Promise<FakeChatProvider>;
  env: (fake: FakeChatProvider) => Record<string, string>;
}> = [
  {
    model: 'bedrock:anthropic.claude-3-5-haiku-20241022-v1:0',
    start: () => startFakeBedrock(calculatorTurn, aws),
    env: (fake) => ({
      AWS_REGION: 'ap-northeast-2',
      AWS_ACCESS_KEY_ID: aws.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.secretAccessKey,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.baseUrl,
    }),
  },
  {
    model: 'google:gemini-2.5-flash',
    start: () => startFakeGemini(calculatorTurn, 'AIza-fake'),
    env: (fake) => ({
      GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-fake',
      GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.baseUrl}/v1beta`,
    }),
  },
  {
    model: 'azure:yeoul-gpt',
    start: () => startFakeAzureOpenAi(calculatorTurn, 'azure-key'),
    env: (fake) => ({ AZURE_API_KEY: 'azure-key', AZURE_BASE_URL: `${fake.baseUrl}/openai/v1` }),
  },
];

describe('the agent on Bedrock, Gemini and Azure OpenAI (fakes on their wire formats)', () => {
  for (const { model, start, env } of cases) {
    it(`${model}: the calculator turn, invoked and streamed, and the status names the model`, async () => {
      const fake = await start();
      const { server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_MODEL: model,
        ...env(fake),
      });
      try {
        const invoke = await fetch(`${server.url}/api/agent/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: '123 * 456 계산해줘' }),
        });
        const payload = (await invoke.json()) as Json;
        assert.equal(payload.status, 'published', JSON.stringify(payload));
        assert.equal(payload.response, '123 × 456 = 56,088입니다.');
        assert.deepEqual(payload.toolsUsed, ['calculator']);
        assert.equal(fake.bodies().length, 2, 'agent → tools → agent: two model calls');
        assert.equal(payload.usage.llmCalls, 2);
        assert.ok(payload.usage.inputTokens > 0, 'the usage the provider reported');

        const stream = await fetch(`${server.url}/api/agent/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: '123 * 456 계산해줘' }),
        });
        const events = await readEvents(stream);
        const names = events.map((event) => event.event);
        assert.ok(names.includes('tool-call') && names.includes('token'), names.join(' '));
        assert.equal((events.at(-1) as Json).data.response, '123 × 456 = 56,088입니다.');

        const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as Json;
        assert.equal(status.model, model);
        assert.equal(status.lastModelError ?? null, null);
      } finally {
        await server.close();
        await fake.close();
      }
    });
  }
});

describe('a cloud provider without its settings', () => {
  it('stops the CLI at start (exit 2) with a line naming each setting to set', async () => {
    const home = mkdtempSync(join(root, 'home-'));
    const data = mkdtempSync(join(root, 'data-'));
    const bedrock = await runYeoul(['ask', '안녕', '--data', data], {
      env: { YEOUL_MODEL: 'bedrock:amazon.nova-lite-v1:0', HOME: home },
    });
    assert.equal(bedrock.code, 2);
    assert.equal(bedrock.stdout, '');
    const lines = bedrock.stderr.trim().split('\n');
    assert.equal(lines.length, 2, bedrock.stderr);
    assert.match(
      lines[0] ?? '',
      /^yeoul: .*no AWS region is set: set AWS_REGION \(or AWS_DEFAULT_REGION\)/,
    );
    assert.match(
      lines[1] ?? '',
      /^yeoul: .*set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY .* or AWS_PROFILE/,
    );

    const azure = await runYeoul(['ask', '안녕', '--data', data], {
      env: {
        YEOUL_MODEL: 'azure:gpt',
        AZURE_API_KEY: 'k',
        AZURE_BASE_URL: 'http://127.0.0.1:6669',
      },
    });
    assert.equal(azure.code, 2);
    assert.match(
      azure.stderr,
      /AZURE_BASE_URL \(http:\/\/127\.0\.0\.1:6669\): port 6669 is blocked/,
    );
  });
});
