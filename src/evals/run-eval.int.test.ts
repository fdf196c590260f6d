import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createAgentRunner } from '../agents/index.ts';
import { SqliteCheckpointer } from '../graph/index.ts';
import { KnowledgeBase, SqliteRetriever } from '../knowledge/index.ts';
import { ChatModel, readModelConfig, resolveModel } from '../models/index.ts';
import { scriptedLanguageModel } from '../testing/index.ts';
import { createDefaultTools, createToolEnvironment } from '../tools/index.ts';
import { defineScorer } from './define-scorer.ts';
import { parseDataset } from './read-dataset.ts';
import { runEval } from './run-eval.ts';
import { selectScorers } from './scorers/built-in-scorers.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-evals-'));
const tools = createDefaultTools();
const checkpointer = new SqliteCheckpointer();
after(async () => {
  await tools.close();
  await checkpointer.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const knowledge = new KnowledgeBase(new SqliteRetriever());
await knowledge.addDocuments([
  {
    id: 'vacation-policy',
    title: '휴가 정책',
    text: '# 휴가 정책\n\n연차는 입사 첫해에 15일이 주어지며, 병가는 연 10일까지 유급으로 쓸 수 있습니다.',
  },
]);
const model = resolveModel(readModelConfig({}));
const runner = createAgentRunner(
  {
    model,
    tools: tools.registry,
    toolEnvironment: createToolEnvironment({ dataDir, knowledge }),
    knowledge,
  },
  checkpointer,
);
const target = {
  invoke: runner.invoke,
  contextOf: async (sessionId: string) =>
    (await runner.conversationState(sessionId))?.values.context ?? '',
};

const dataset = parseDataset(
  [
    '{"id":"calc","input":"123 * 456 계산해줘","expected":"56088","expectedTools":["calculator"]}',
    '{"id":"rag","input":"회사 휴가 정책이 뭐야?","expected":"15일","expectedSources":["vacation-policy"]}',
    '{"id":"name","input":["내 이름은 철수야","내 이름이 뭐라고 했지?"],"expected":"철수"}',
    '{"id":"wrong","input":"123 * 456 계산해줘","expected":"56000","expectedTools":["calculator","get_weather"]}',
  ].join('\n'),
  'jsonl',
);

describe('evaluation runs (offline model)', () => {
  it('runs each item on a new session, turns on one session, and scores it', async () => {
    const seen: string[] = [];
    const run = await runEval({
      items: dataset,
      target,
      scorers: selectScorers(undefined),
      concurrency: 3,
      onItem: (item, done, total) => seen.push(`${done}/${total} ${item.id}`),
    });
    assert.deepEqual(
      run.items.map((item) => item.id),
      ['calc', 'rag', 'name', 'wrong'],
    );
    assert.equal(seen.length, 4);
    assert.equal(new Set(run.items.map((item) => item.sessionId)).size, 4);
    const [calc, rag, name, wrong] = run.items;
    assert.deepEqual(
      calc?.scores.map((score) => [score.scorer, score.passed]),
      [
        ['contains', true],
        ['tools', true],
        ['grounded', true],
      ],
    );
    assert.equal(calc?.passed, true);
    assert.equal(rag?.passed, true, JSON.stringify(rag?.scores));
    assert.deepEqual(
      rag?.scores.map((score) => score.scorer),
      ['contains', 'sources', 'grounded'],
    );
    assert.equal(name?.passed, true, JSON.stringify(name?.scores));
    assert.match(name?.response ?? '', /철수/);
    assert.equal(
      (await runner.conversationState(name?.sessionId ?? ''))?.values.messages.length,
      4,
    );
    assert.equal(wrong?.passed, false);
    assert.deepEqual(
      wrong?.scores.filter((score) => !score.passed).map((score) => score.scorer),
      ['contains', 'tools'],
    );
    assert.ok((calc?.usage.llmCalls ?? 0) >= 2);
    assert.equal(run.summary.items, 4);
    assert.equal(run.summary.passed, 3);
    assert.equal(run.summary.failed, 1);
    assert.equal(run.summary.byScorer.tools, 0.75);
  });

  it('gives the same scores when the same dataset runs twice', async () => {
    const scorers = selectScorers(['contains', 'tools', 'sources', 'grounded', 'judge', 'exact']);
    const first = await runEval({ items: dataset, target, scorers, tools: { judge: model } });
    const second = await runEval({ items: dataset, target, scorers, tools: { judge: model } });
    const scoresOf = (run: typeof first) => run.items.map((item) => item.scores);
    assert.deepEqual(scoresOf(first), scoresOf(second));
    assert.deepEqual(first.summary, second.summary);
  });

  it('takes user scorers beside the built-ins, and fails an item whose run or scorer throws', async () => {
    const polite = defineScorer({
      name: 'polite',
      score: ({ response }) => {
        const passed = /니다|요/.test(response);
        return { score: passed ? 1 : 0, passed, reason: passed ? 'polite' : 'not polite' };
      },
    });
    const broken = defineScorer({
      name: 'broken',
      score: () => {
        throw new Error('boom');
      },
    });
    const run = await runEval({
      items: dataset.slice(0, 1),
      target,
      scorers: selectScorers(undefined, [polite, broken]),
    });
    const scores = run.items[0]?.scores ?? [];
    assert.deepEqual(
      scores.map((score) => [score.scorer, score.passed]),
      [
        ['contains', true],
        ['tools', true],
        ['grounded', true],
        ['polite', true],
        ['broken', false],
      ],
    );
    assert.equal(scores.at(-1)?.reason, 'the scorer failed: boom');
    const failing = await runEval({
      items: dataset.slice(0, 1),
      target: {
        invoke: async () => {
          throw new Error('graph "nope" not found');
        },
      },
      scorers: selectScorers(undefined),
    });
    assert.equal(failing.items[0]?.passed, false);
    assert.equal(failing.items[0]?.scores[0]?.reason, 'the run failed: graph "nope" not found');
    assert.throws(() => selectScorers(['contains', 'nope']), /unknown scorer "nope"/);
  });

  it('denies tool calls that need approval, so the item still gets its answer', async () => {
    const scripted = scriptedLanguageModel((options) => {
      if (options.responseFormat?.type === 'json') {
        return { object: { route: 'agent', reason: 'a task' } };
      }
      const denied = JSON.stringify(options.prompt).includes('do not approve');
      return denied
        ? { text: 'The file was not written: the call was denied.' }
        : { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hello' } }] };
    });
    const approving = createAgentRunner(
      {
        model: new ChatModel(scripted, { provider: 'compat', modelId: 'script' }),
        tools: tools.registry,
        toolEnvironment: createToolEnvironment({ dataDir, knowledge }),
      },
      checkpointer,
    );
    const run = await runEval({
      items: parseDataset(
        '{"id":"write","input":"notes.txt에 hello라고 써줘","expectedTools":["write_file"]}',
        'jsonl',
      ),
      target: { invoke: approving.invoke },
      scorers: selectScorers(['tools', 'contains']),
    });
    const [item] = run.items;
    assert.equal(item?.response, 'The file was not written: the call was denied.');
    assert.equal(item?.scores[0]?.passed, true, item?.scores[0]?.reason);
  });
});
