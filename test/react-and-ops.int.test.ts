import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { z } from 'zod';
import {
  type AgentDependencies,
  buildReactGraph,
  createAgentRunner,
  reactRunInput,
} from '../src/agents/index.ts';
import { MemoryCheckpointer, SqliteCheckpointer } from '../src/graph/index.ts';
import { ChatModel, readModelConfig, resolveModel } from '../src/models/index.ts';
import { type ScriptedReply, scriptedLanguageModel } from '../src/testing/index.ts';
import {
  createDefaultTools,
  createToolEnvironment,
  defineTool,
  ToolRegistry,
} from '../src/tools/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-agents-'));
const tools = createDefaultTools();
after(async () => {
  await tools.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function dependencies(overrides: Partial<AgentDependencies> = {}): AgentDependencies {
  return {
    model: resolveModel(readModelConfig({})),
    tools: tools.registry,
    toolEnvironment: createToolEnvironment({ dataDir }),
    ...overrides,
  };
}

const scripted = (script: ScriptedReply[], provider: 'offline' | 'openai' = 'offline') =>
  new ChatModel(
    scriptedLanguageModel(script),
    { provider, modelId: 'script' },
    { retryBaseDelayMs: 1 },
  );

describe('react agent', () => {
  const graph = buildReactGraph(dependencies(), { checkpointer: new MemoryCheckpointer() });

  it('runs input → llm → tool → llm → response for a calculation', async () => {
    const steps: string[] = [];
    const state = await graph.invoke(reactRunInput('123 * 456 계산해줘', { maxIterations: 5 }), {
      threadId: 'r1',
      onEvent: (event) => {
        if (event.type === 'node-start') steps.push(event.node);
      },
    });
    assert.deepEqual(steps, ['input', 'llm', 'tool', 'llm', 'response']);
    assert.equal(state.response, '123 * 456 = 56,088입니다.');
    assert.equal(state.iterationCount, 2);
    assert.deepEqual(
      state.toolExecutionResults.map((result) => result.content),
      ['123 * 456 = 56088'],
    );
    assert.equal(state.currentStep, 'response');
  });

  for (const [input, code] of [
    ['', 'empty_input'],
    ['   \n ', 'empty_input'],
    ['hi\u0007there', 'invalid_input'],
    ['말 '.repeat(5000), 'input_too_long'],
  ] as const) {
    it(`sends ${code} input to the error path (${JSON.stringify(input.slice(0, 12))})`, async () => {
      const state = await graph.invoke(reactRunInput(input, { maxIterations: 5 }), {
        threadId: `bad-${code}-${input.length}`,
      });
      assert.equal(state.error?.code, code);
      assert.equal(state.currentStep, 'error');
      assert.equal(state.usage.llmCalls, 0);
      assert.deepEqual(state.messages, [], 'a refused input never enters the conversation');
    });
  }

  it('stops at maxIterations with "request too complex", keeping the history valid', async () => {
    const looping = buildReactGraph(
      dependencies({
        model: scripted([{ toolCalls: [{ name: 'calculator', args: { expression: '1+1' } }] }]),
      }),
    );
    const state = await looping.invoke(reactRunInput('계속', { maxIterations: 2 }));
    assert.equal(state.error?.code, 'request_too_complex');
    assert.match(state.response, /요청이 너무 복잡합니다/);
    assert.equal(state.usage.llmCalls, 2);
    const last = state.messages.slice(-2).map((message) => message.role);
    assert.deepEqual(last, ['tool', 'assistant'], 'the dangling tool call got a result');
  });

  it('routes an LLM failure after 3 attempts to the error node with a friendly message', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const failing = buildReactGraph(
      dependencies({
        model: scripted([{ error: new TypeError('fetch failed', { cause: refused }) }]),
      }),
    );
    const state = await failing.invoke(reactRunInput('안녕', { maxIterations: 5 }));
    assert.equal(state.error?.code, 'model_unreachable');
    assert.match(state.response, /언어 모델 서버에 연결할 수 없어/);
    assert.equal(state.usage.llmCalls, 3);
  });
});

describe('agent runner payloads and the ops loop', () => {
  const logTool = defineTool({
    name: 'query_logs',
    description: 'Returns error log events of a service.',
    inputSchema: z.object({ service: z.string(), status: z.number() }),
    execute: async ({ service, status }) => ({
      service,
      status,
      count: 4,
      events: ['e1', 'e2', 'e3', 'e4'],
    }),
  });
  const logTools = new ToolRegistry().register(logTool);
  const question = 'payment-service에서 500 에러 로그 보여줘';
  const callLogs: ScriptedReply = {
    toolCalls: [{ name: 'query_logs', args: { service: 'payment-service', status: 500 } }],
  };

  it('returns the contract payload for a plain chat request', async () => {
    const runner = createAgentRunner(dependencies(), new SqliteCheckpointer());
    const events: string[] = [];
    const payload = await runner.invoke({
      message: '123 * 456 계산해줘',
      onEvent: (name) => events.push(name),
    });
    assert.equal(payload.response, '123 * 456 = 56,088입니다.');
    assert.equal(payload.status, 'published');
    assert.deepEqual(payload.toolsUsed, ['calculator']);
    assert.deepEqual(payload.steps, ['router', 'memory', 'agent', 'tools', 'agent']);
    assert.equal(payload.usage.llmCalls, 2);
    assert.ok(payload.usage.inputTokens > 0 && payload.executionTime >= 0);
    assert.equal(typeof payload.sessionId, 'string');
    for (const name of ['step', 'token', 'tool-call', 'tool-result'])
      assert.ok(events.includes(name), name);
    const again = await runner.invoke({
      message: '내 이름은 철수야',
      sessionId: payload.sessionId,
    });
    assert.equal(again.sessionId, payload.sessionId);
  });

  it('regenerates a wrong count with the evaluation’s feedback, then publishes', async () => {
    const model = scripted([
      callLogs,
      { text: 'payment-service에서 500 에러가 3건 발생했습니다.' },
      callLogs,
      { text: 'payment-service에서 500 에러가 4건 발생했습니다.' },
    ]);
    const runner = createAgentRunner(
      dependencies({ model, tools: logTools }),
      new MemoryCheckpointer(),
    );
    const payload = await runner.invoke({ message: question, options: { evaluate: true } });
    assert.equal(payload.status, 'published');
    assert.equal(payload.response, 'payment-service에서 500 에러가 4건 발생했습니다.');
    assert.equal(payload.evaluation?.verdict, 'pass');
    assert.equal(payload.evaluation?.score, 1);
    assert.deepEqual(
      payload.steps.filter((step) =>
        ['analyze', 'evaluate', 'decide', 'regenerate', 'finalize'].includes(step),
      ),
      ['analyze', 'evaluate', 'decide', 'regenerate', 'analyze', 'evaluate', 'decide', 'finalize'],
    );
    const retryPrompt = JSON.stringify(
      (model.languageModel as ReturnType<typeof scriptedLanguageModel>).calls[2]?.prompt,
    );
    assert.match(retryPrompt, /이전 응답에 대한 피드백/);
    assert.match(retryPrompt, /4/);
  });

  it('publishes the second attempt even if it is still middling (last attempt)', async () => {
    const model = scripted([
      callLogs,
      { text: '에러가 3건입니다.' },
      callLogs,
      { text: '에러가 5건입니다.' },
    ]);
    const runner = createAgentRunner(
      dependencies({ model, tools: logTools }),
      new MemoryCheckpointer(),
    );
    const payload = await runner.invoke({ message: question, options: { graph: 'ops' } });
    assert.equal(payload.status, 'published');
    assert.equal(payload.evaluation?.score, 0.5);
    assert.equal(payload.response, '에러가 5건입니다.');
  });

  it('blocks an answer that denies what the tools found, with the warning prefix', async () => {
    // A wrong count is regenerated (it scores 0.3–0.7); denying the findings is blocked.
    const model = scripted([callLogs, { text: 'There were no errors.' }]);
    const runner = createAgentRunner(
      dependencies({ model, tools: logTools }),
      new MemoryCheckpointer(),
    );
    const payload = await runner.invoke({ message: question, options: { evaluate: true } });
    assert.equal(payload.evaluation?.verdict, 'block');
    assert.equal(payload.status, 'rejected');
    assert.equal(payload.response, '⚠️ 응답 품질 검증 주의\n\nThere were no errors.');
  });

  it('adds the judge check when a real model is configured', async () => {
    const model = scripted(
      [callLogs, { text: '500 에러가 4건 있습니다.' }, { object: { score: 0.9, feedback: '' } }],
      'openai',
    );
    const runner = createAgentRunner(
      dependencies({ model, tools: logTools }),
      new MemoryCheckpointer(),
    );
    const payload = await runner.invoke({ message: question, options: { evaluate: true } });
    assert.deepEqual(
      payload.evaluation?.checks.map((check) => check.name),
      ['grounding', 'answer_form', 'judge'],
    );
    assert.equal(payload.status, 'published');
  });

  it('reports an error status and code when the model stays down', async () => {
    const runner = createAgentRunner(
      dependencies({ model: scripted([{ error: new TypeError('fetch failed') }]) }),
      new MemoryCheckpointer(),
    );
    const payload = await runner.invoke({ message: '안녕하세요', options: { evaluate: true } });
    assert.equal(payload.status, 'error');
    assert.equal(payload.error, true);
    assert.equal(payload.errorCode, 'model_unavailable');
    assert.match(payload.response, /언어 모델 서비스가 지금 응답하지 않습니다/);
  });
});
