import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  type AgentDependencies,
  buildChatGraph,
  chatRunInput,
  summarySeparator,
} from '../src/agents/index.ts';
import { type GraphEvent, SqliteCheckpointer } from '../src/graph/index.ts';
import { KnowledgeBase, SqliteRetriever } from '../src/knowledge/index.ts';
import { ChatModel, readModelConfig, resolveModel } from '../src/models/index.ts';
import { scriptedLanguageModel } from '../src/testing/index.ts';
import { createDefaultTools, createToolEnvironment } from '../src/tools/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-chat-'));
const tools = createDefaultTools();
after(async () => {
  await tools.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const knowledge = new KnowledgeBase(new SqliteRetriever());
await knowledge.addDocuments([
  {
    id: 'vacation-policy',
    title: '휴가 정책',
    text: '# 휴가 정책\n\n연차는 입사 첫해에 15일이 주어지며, 병가는 연 10일까지 유급으로 쓸 수 있습니다. 연차는 반차 단위로 나누어 쓸 수 있습니다.',
  },
  {
    id: 'team-budget',
    title: '팀 예산',
    text: '2024년 팀 예산: 1억원. 예산은 분기마다 검토합니다.',
  },
]);

function dependencies(overrides: Partial<AgentDependencies> = {}): AgentDependencies {
  return {
    model: resolveModel(readModelConfig({})),
    tools: tools.registry,
    toolEnvironment: createToolEnvironment({ dataDir, knowledge }),
    knowledge,
    ...overrides,
  };
}

async function run(
  graph: ReturnType<typeof buildChatGraph>,
  message: string,
  threadId: string,
  maxIterations = 5,
) {
  const steps: string[] = [];
  const events: GraphEvent<never>[] = [];
  const state = await graph.invoke(chatRunInput(message, { maxIterations }), {
    threadId,
    onEvent: (event) => {
      events.push(event as GraphEvent<never>);
      if (event.type === 'node-start') steps.push(event.node);
    },
  });
  return { state, steps, events, answer: state.messages.at(-1)?.content ?? '' };
}

describe('chat agent scenarios (offline model)', () => {
  const graph = buildChatGraph(dependencies(), { checkpointer: new SqliteCheckpointer() });

  it('1. greeting: one LLM call (the original design needs two)', async () => {
    const { state, steps, answer } = await run(graph, '안녕하세요', 's1');
    assert.deepEqual(steps, ['router', 'memory', 'agent']);
    assert.equal(state.route, 'agent');
    assert.equal(state.routeReason, 'small talk');
    assert.match(answer, /안녕하세요/);
    assert.equal(state.usage.llmCalls, 1);
  });

  it('2. calculator: agent → tools → agent, two LLM calls (the original design: three)', async () => {
    const { state, steps, answer, events } = await run(graph, '123 * 456 계산해줘', 's2');
    assert.deepEqual(steps, ['router', 'memory', 'agent', 'tools', 'agent']);
    assert.equal(answer, '123 * 456 = 56,088입니다.');
    assert.deepEqual(state.toolsUsed, ['calculator']);
    assert.equal(state.usage.llmCalls, 2);
    const names = events.flatMap((event) => (event.type === 'custom' ? [event.name] : []));
    assert.ok(
      names.includes('tool-call') && names.includes('tool-result') && names.includes('token'),
    );
  });

  it('3. RAG: router → rag → memory → agent, answer from the documents with sources', async () => {
    const { state, steps, answer } = await run(graph, '회사 휴가 정책이 뭐야?', 's3');
    assert.deepEqual(steps, ['router', 'rag', 'memory', 'agent']);
    assert.match(answer, /연차는 입사 첫해에 15일/);
    assert.equal(state.sources[0]?.documentId, 'vacation-policy');
    assert.equal(state.usage.llmCalls, 1);
  });

  it('RAG + question: the budget comes from the documents', async () => {
    const { state, answer } = await run(graph, '팀 예산이 얼마야?', 's-budget');
    assert.equal(state.route, 'rag');
    assert.match(answer, /1억원/);
  });

  it('error flow: the calculator error reaches the model, which apologises', async () => {
    const { state, answer } = await run(graph, '계산해줘: abc', 's-error');
    assert.deepEqual(state.toolsUsed, ['calculator']);
    assert.match(answer, /^죄송합니다/);
    assert.equal(state.error, null);
    const toolMessage = state.messages.find((message) => message.role === 'tool');
    assert.equal(toolMessage?.isError, true);
    assert.match(toolMessage?.content ?? '', /^Error: /);
  });

  it('4. long conversation: summaries slide through four rounds, the name survives', async () => {
    const thread = 's4';
    await run(graph, '내 이름은 철수야', thread);
    const summaries: string[] = [];
    for (let turn = 1; turn <= 14; turn += 1) {
      const { state } = await run(
        graph,
        `프로젝트 메모 ${turn}: 마감은 3월 ${turn}일로 하자`,
        thread,
      );
      if (state.summary !== summaries.at(-1)) summaries.push(state.summary);
      assert.ok(state.messages.length <= 10, `kept ${state.messages.length} messages`);
    }
    assert.ok(summaries.length >= 4, `${summaries.length} summaries`);
    const window = summaries.at(-1) ?? '';
    assert.equal(window.split(summarySeparator).length, 3, 'three summaries in the window');
    const { answer } = await run(graph, '내 이름이 뭐라고 했지?', thread);
    assert.equal(answer, '철수님이라고 하셨어요.');
  });

  it('4b. the summarising turn costs one extra LLM call and keeps the 5 most recent messages', async () => {
    const thread = 's4b';
    let state = (await run(graph, '안녕', thread)).state;
    for (let turn = 0; turn < 4; turn += 1)
      state = (await run(graph, `메모 ${turn}`, thread)).state;
    assert.equal(state.messages.length, 10);
    const summarising = await run(graph, '아까 말한 메모가 뭐였지?', thread);
    assert.equal(summarising.state.usage.llmCalls, 2);
    assert.equal(summarising.state.summary.split(summarySeparator).length, 1);
    // The 5 most recent (the question among them) and the answer.
    assert.equal(summarising.state.messages.length, 5 + 1);
  });
});

describe('chat agent sessions', () => {
  it('5. remembers a name across a restart (a reopened SQLite file)', async () => {
    const path = join(dataDir, 'sessions.sqlite');
    const first = new SqliteCheckpointer({ path });
    await run(
      buildChatGraph(dependencies(), { checkpointer: first }),
      '내 이름은 철수야',
      'abc-123',
    );
    await first.close();
    const second = new SqliteCheckpointer({ path });
    const { answer } = await run(
      buildChatGraph(dependencies(), { checkpointer: second }),
      '내 이름이 뭐라고 했지?',
      'abc-123',
    );
    assert.equal(answer, '철수님이라고 하셨어요.');
    await second.close();
  });
});

describe('chat agent limits and failures', () => {
  it('answers "request too complex" at the iteration limit', async () => {
    const looping = scriptedLanguageModel([
      { toolCalls: [{ name: 'calculator', args: { expression: '1 + 1' } }] },
    ]);
    const graph = buildChatGraph(
      dependencies({ model: new ChatModel(looping, { provider: 'offline', modelId: 'loop' }) }),
    );
    const { state, answer } = await run(graph, '계속 계산해', 'loop', 3);
    assert.match(answer, /요청이 너무 복잡합니다/);
    assert.equal(state.error?.code, 'request_too_complex');
    assert.equal(state.usage.llmCalls, 3);
    assert.deepEqual(state.toolsUsed, ['calculator', 'calculator']);
  });

  it('ends with a friendly message and an error code when the model keeps failing', async () => {
    const failing = scriptedLanguageModel([
      { error: Object.assign(new Error('boom'), { name: 'TypeError' }) },
    ]);
    const model = new ChatModel(
      failing,
      { provider: 'offline', modelId: 'down' },
      { retryBaseDelayMs: 1 },
    );
    const graph = buildChatGraph(dependencies({ model }));
    const { state, answer } = await run(graph, '안녕하세요', 'down');
    assert.match(answer, /언어 모델 서비스가 지금 응답하지 않습니다/);
    assert.equal(state.error?.code, 'model_unavailable');
    assert.equal(failing.calls.length, 3, 'three attempts');
  });
});

describe('chat agent with a scripted model (message-state traces)', () => {
  it('RAG + tool: "팀 예산이 얼마야? 20% 증가하면?" → context 1억원, calculator, 1.2억원', async () => {
    const model = scriptedLanguageModel((options) => {
      if (options.responseFormat?.type === 'json')
        return { object: { route: 'rag', reason: '예산 문서 필요' } };
      const last = options.prompt.at(-1);
      if (last?.role === 'tool')
        return { text: '현재 팀 예산은 1억원이고, 20% 증가 시 1.2억원입니다.' };
      const system = options.prompt.find((message) => message.role === 'system')?.content ?? '';
      assert.match(system, /\[참고 문서\][\s\S]*1억원/);
      return { toolCalls: [{ name: 'calculator', args: { expression: '100000000 * 1.2' } }] };
    });
    const graph = buildChatGraph(
      dependencies({ model: new ChatModel(model, { provider: 'openai', modelId: 'script' }) }),
    );
    const { state, steps, answer } = await run(
      graph,
      '팀 예산이 얼마야? 20% 증가하면?',
      'budget-tool',
    );
    assert.deepEqual(steps.slice(0, 2), ['router', 'rag']);
    assert.deepEqual(steps.slice(-3), ['agent', 'tools', 'agent']);
    assert.deepEqual(
      state.messages.map((message) => [
        message.role,
        message.toolCalls?.[0]?.name ?? message.name ?? null,
      ]),
      [
        ['user', null],
        ['assistant', 'calculator'],
        ['tool', 'calculator'],
        ['assistant', null],
      ],
    );
    assert.equal(state.messages[2]?.content, '100000000 * 1.2 = 120000000');
    assert.equal(answer, '현재 팀 예산은 1억원이고, 20% 증가 시 1.2억원입니다.');
    assert.equal(state.sources[0]?.documentId, 'team-budget');
    assert.ok(
      state.usage.llmCalls <= 3,
      `${state.usage.llmCalls} LLM calls (the original design: 3)`,
    );
  });
});
