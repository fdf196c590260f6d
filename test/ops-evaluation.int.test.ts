import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createRuntime,
  type RunningServer,
  readServerConfig,
  startServer,
} from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const question = 'payment-service에서 500 에러 로그 보여줘';
const retryMarker = '[이전 응답에 대한 피드백]';
/** The newest of the 17 sample events (src/tools/builtin/logs/samples/README.md). */
const newest = '2025-03-14T05:07:38.837Z ORD-52116 card-gateway request timed out after 5000 ms';
const rightAnswer = `payment-service에서 500 에러가 17건 발생했습니다. 가장 최근: ${newest}`;

/** How the scripted model answers this test: the agent's two answers, and the judge. */
const script = {
  first: rightAnswer,
  retry: rightAnswer,
  judge: (request: ChatCompletionRequest): FakeCompletion =>
    statesJudgeSchema(request)
      ? { kind: 'text', text: '{"score": 0.9, "feedback": ""}' }
      : { kind: 'text', text: 'The answer looks fine to me.' },
};

const textOf = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content);
const systemOf = (request: ChatCompletionRequest) =>
  request.body.messages
    .filter((message) => message.role === 'system')
    .map((message) => textOf(message.content))
    .join('\n');
const isJudge = (request: ChatCompletionRequest) => request.body.response_format !== undefined;
/** What a model that only does `json_object` needs: the schema of the object, in the prompt. */
const statesJudgeSchema = (request: ChatCompletionRequest) =>
  /JSON Schema/.test(systemOf(request)) &&
  /"score"/.test(systemOf(request)) &&
  /"feedback"/.test(systemOf(request));

/**
 * The scripted agent: asks query_logs for payment-service's 500s, then answers (the retry
 * answer once the prompt carries the evaluation's feedback); judge requests go to `script.judge`.
 */
function answer(request: ChatCompletionRequest): FakeCompletion {
  if (isJudge(request)) return script.judge(request);
  const messages = request.body.messages;
  if (messages.at(-1)?.role !== 'tool') {
    return {
      kind: 'tool-calls',
      calls: [
        {
          id: `call-${Math.random().toString(36).slice(2, 8)}`,
          name: 'query_logs',
          arguments: JSON.stringify({ service: 'payment-service', status: 500 }),
        },
      ],
    };
  }
  const retry = messages.some(
    (message) => message.role === 'user' && textOf(message.content).includes(retryMarker),
  );
  return { kind: 'text', text: retry ? script.retry : script.first };
}

describe('the ops workflow through POST /api/agent/invoke with a scripted compat model', () => {
  const root = mkdtempSync(join(tmpdir(), 'yeoul-ops-eval-'));
  let fake: FakeOpenAiServer;
  let server: RunningServer;
  let session = 0;

  before(async () => {
    fake = await startFakeOpenAiServer((request) => answer(request));
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: join(root, 'data'),
        PORT: '0',
        YEOUL_MODEL: 'compat:ops-script',
        YEOUL_COMPAT_BASE_URL: fake.baseUrl,
      }),
    );
    server = await startServer(runtime, { logger: false });
  });
  after(async () => {
    await server.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  });

  const invoke = async () => {
    fake.requests.length = 0;
    session += 1;
    const response = await fetch(`${server.url}/api/agent/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: question,
        sessionId: `ops-${session}`,
        options: { graph: 'ops' },
      }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const opsSteps = (body: Json) =>
    (body.steps as string[]).filter((step) =>
      ['analyze', 'evaluate', 'decide', 'regenerate', 'finalize'].includes(step),
    );
  const retryPrompts = () =>
    fake.requests
      .filter((request) => !isJudge(request))
      .flatMap((request) => request.body.messages)
      .filter((message) => message.role === 'user' && textOf(message.content).includes(retryMarker))
      .map((message) => textOf(message.content));

  it('regenerates a wrong count with "실제 이벤트 수는 17건입니다", then publishes the right one', async () => {
    script.first = `payment-service에서 500 에러가 12건 발생했습니다. 가장 최근: ${newest}`;
    script.retry = rightAnswer;
    const { status, body } = await invoke();
    assert.equal(status, 200);
    assert.equal(body.status, 'published');
    assert.equal(body.response, rightAnswer);
    assert.deepEqual(opsSteps(body), [
      'analyze',
      'evaluate',
      'decide',
      'regenerate',
      'analyze',
      'evaluate',
      'decide',
      'finalize',
    ]);
    assert.ok(body.toolsUsed.includes('query_logs'));
    assert.equal(body.evaluation.verdict, 'pass');
    assert.match(retryPrompts()[0] ?? '', /실제 이벤트 수는 17건입니다/);
  });

  it('regenerates a wrong count that equals the seconds of an event’s timestamp', async () => {
    // 22 is in the tool output only as a time: 2025-03-14T05:03:22.863Z.
    script.first = `payment-service에서 500 에러가 22건 발생했습니다. 가장 최근: ${newest}`;
    script.retry = rightAnswer;
    const { body } = await invoke();
    assert.ok(opsSteps(body).includes('regenerate'));
    assert.match(retryPrompts()[0] ?? '', /실제 이벤트 수는 17건입니다/);
    assert.equal(body.status, 'published');
  });

  it('blocks an answer with no grounding at all, with the warning prefix', async () => {
    script.first = 'payment-service에는 500 에러가 없습니다. 결제는 정상입니다.';
    script.retry = script.first;
    const { status, body } = await invoke();
    assert.equal(status, 200);
    assert.equal(body.status, 'rejected');
    assert.equal(body.evaluation.verdict, 'block');
    assert.ok(body.evaluation.score < 0.3);
    assert.equal(body.response, `⚠️ 응답 품질 검증 주의\n\n${script.first}`);
    assert.deepEqual(opsSteps(body), ['analyze', 'evaluate', 'decide', 'finalize']);
  });

  it('states the judge’s schema to a compat model that only does json_object', async () => {
    script.first = rightAnswer;
    script.judge = (request) =>
      statesJudgeSchema(request)
        ? { kind: 'text', text: '{"score": 0.8, "feedback": "좋습니다"}' }
        : { kind: 'text', text: 'I cannot tell which object you want.' };
    const { body } = await invoke();
    const judged = fake.requests.filter(isJudge);
    assert.equal(judged.length, 1);
    assert.deepEqual(judged[0]?.body.response_format, { type: 'json_object' });
    const judge = body.evaluation.checks.find((check: Json) => check.name === 'judge');
    assert.deepEqual(judge, { name: 'judge', score: 0.8, passed: true, feedback: '' });
    assert.equal(body.status, 'published');
  });

  it('retries a judgement that does not parse, then ends in the ERROR status with HTTP 200', async () => {
    script.first = rightAnswer;
    script.judge = () => ({ kind: 'text', text: 'Looks good! Score: high.' });
    const { status, body } = await invoke();
    assert.equal(status, 200);
    assert.equal(body.status, 'error');
    assert.equal(body.error, true);
    assert.equal(body.errorCode, 'model_unavailable');
    assert.equal(fake.requests.filter(isJudge).length, 3, 'three attempts');
    assert.deepEqual(opsSteps(body), ['analyze', 'evaluate', 'finalize']);
    assert.match(body.response, /죄송합니다/);
  });
});
