import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { StateGraph } from './builder.ts';
import { append, replace } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { SqliteCheckpointer } from './checkpoint/sqlite-checkpointer.ts';
import type { Checkpointer } from './checkpoint/types.ts';
import { ForkPointError } from './errors/fork-point-error.ts';
import { ThreadExistsError } from './errors/thread-exists-error.ts';
import { ThreadNotFoundError } from './errors/thread-not-found-error.ts';
import { answerFor, interrupt } from './interrupt.ts';
import { defineState } from './state.ts';
import { END, START } from './types.ts';

const schema = defineState({ log: append<string>(), question: replace<string>('') });

/** prepare → ask (asks "ok?" and logs the answer) → END; `asked` counts the questions. */
function askingGraph() {
  const counts = { asked: 0 };
  const graph = new StateGraph(schema)
    .addNode('prepare', (state) => ({ log: `prepare ${state.question}` }))
    .addNode('ask', (_state, context) => {
      const answer = answerFor(context.resume, 'ok');
      if (answer === undefined) {
        counts.asked += 1;
        return interrupt([{ key: 'ok', value: 'ok?' }]);
      }
      return { log: `answer ${String(answer)}` };
    })
    .addEdge(START, 'prepare')
    .addEdge('prepare', 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
  return { graph, counts };
}

/** Runs one question-and-answer turn on the thread. */
async function turn(graph: ReturnType<typeof askingGraph>['graph'], threadId: string, q: string) {
  const paused = await graph.run({ question: q }, { threadId });
  const id = paused.interrupts[0]?.id as string;
  return graph.resume(threadId, { answers: { [id]: `yes to ${q}` } });
}

describe('time travel', () => {
  it('numbers history steps from 0 per thread across runs, one per entry', async () => {
    const { graph } = askingGraph();
    await turn(graph, 't', 'a');
    await turn(graph, 't', 'b');
    const history = await graph.history('t');
    assert.deepEqual(
      history.map((entry) => entry.step),
      history.map((_entry, index) => index),
    );
    assert.deepEqual(
      history.map((entry) => entry.kind),
      [...Array(2).fill(['input', 'node', 'interrupt', 'resume', 'node'])].flat(),
    );
  });

  it('forks inside a run: the fork is that run paused, resume re-runs what follows and asks again', async () => {
    const { graph, counts } = askingGraph();
    await turn(graph, 't', 'a');
    const original = JSON.stringify(await graph.history('t'));
    const prepared = (await graph.history('t')).find((entry) => entry.node === 'prepare');
    const { threadId } = await graph.fork('t', { atStep: prepared?.step as number, threadId: 'f' });
    assert.equal(threadId, 'f');
    const forked = await graph.getState('f');
    assert.deepEqual(forked?.values.log, ['prepare a']);
    assert.equal(forked?.status, 'running');
    assert.deepEqual(forked?.forkedFrom, { threadId: 't', step: prepared?.step });
    const asked = counts.asked;
    const again = await graph.resumeRun('f');
    assert.equal(again.status, 'interrupted', 'the question after the fork point is asked again');
    assert.equal(counts.asked, asked + 1);
    const id = again.interrupts[0]?.id as string;
    const done = await graph.resume('f', { answers: { [id]: 'no' } });
    assert.deepEqual(done.log, ['prepare a', 'answer no']);
    assert.equal(JSON.stringify(await graph.history('t')), original, 'the original is untouched');
    assert.equal((await graph.getState('t'))?.forkedFrom, undefined);
  });

  it('forks at the end of a run with an update, and new input continues the fork', async () => {
    const { graph } = askingGraph();
    await turn(graph, 't', 'a');
    const last = (await graph.history('t')).at(-1)?.step as number;
    const { threadId } = await graph.fork('t', { atStep: last, update: { log: 'edited' } });
    assert.deepEqual((await graph.getState(threadId))?.values.log, [
      'prepare a',
      'answer yes to a',
      'edited',
    ]);
    const next = await turn(graph, threadId, 'b');
    assert.deepEqual(next.log.slice(-2), ['prepare b', 'answer yes to b']);
  });

  it('forks at -1 into an empty thread with the update only', async () => {
    const { graph } = askingGraph();
    await turn(graph, 't', 'a');
    const { threadId } = await graph.fork('t', { atStep: -1, update: { question: 'fresh' } });
    const state = await graph.getState(threadId);
    assert.deepEqual(state?.values, { log: [], question: 'fresh' });
    assert.equal(state?.status, 'done');
  });

  it('refuses a step inside a super-step naming the nearest forkable ones, and bad ids', async () => {
    const { graph } = askingGraph();
    await turn(graph, 't', 'a');
    // 0 input, 1 prepare, 2 interrupt, 3 resume, 4 ask
    await assert.rejects(
      graph.fork('t', { atStep: 2 }),
      (error: unknown) =>
        error instanceof ForkPointError &&
        error.code === 'invalid_fork_point' &&
        error.nearest.join() === '1,4',
    );
    await assert.rejects(graph.fork('t', { atStep: 5 }), { nearest: [4] });
    await assert.rejects(graph.fork('t', { atStep: -2 }), ForkPointError);
    await assert.rejects(graph.fork('t', { atStep: 1.5 }), ForkPointError);
    await assert.rejects(graph.fork('nobody', { atStep: -1 }), ThreadNotFoundError);
    await graph.fork('t', { atStep: 1, threadId: 'taken' });
    await assert.rejects(graph.fork('t', { atStep: 1, threadId: 'taken' }), ThreadExistsError);
  });
});

const directory = mkdtempSync(join(tmpdir(), 'yeoul-fork-'));
after(() => rmSync(directory, { recursive: true, force: true }));
const backends: Array<[string, () => Checkpointer]> = [
  ['memory', () => new MemoryCheckpointer()],
  ['sqlite', () => new SqliteCheckpointer({ path: join(directory, `${Math.random()}.sqlite`) })],
];

for (const [backend, open] of backends)
  describe(`forking a compacted thread (${backend})`, () => {
    /** Nine turns on thread `r` with retention keeping two runs: a base snapshot and later entries. */
    async function compactedThread() {
      const checkpointer = open();
      const graph = new StateGraph(schema)
        .addNode('note', (state) => ({ log: `note ${state.question}` }))
        .addEdge(START, 'note')
        .addEdge('note', END)
        .compile({ checkpointer, retention: { keepRuns: 2 } });
      for (let turn = 1; turn <= 9; turn += 1) {
        await graph.invoke({ question: `q${turn}` }, { threadId: 'r' });
      }
      const log = await checkpointer.read('r');
      assert.ok(log.base !== null, 'retention wrote a base snapshot');
      return { graph, checkpointer, baseStep: log.base.seq - 1 };
    }

    it('forks at the base and after it, copying the base snapshot and the later entries', async () => {
      const { graph, checkpointer, baseStep } = await compactedThread();
      const original = JSON.stringify(await checkpointer.read('r'));
      const history = await graph.history('r');
      const firstKept = history[0] as (typeof history)[number];
      assert.equal(firstKept.step, baseStep + 1);
      const atBase = await graph.fork('r', { atStep: baseStep, threadId: 'at-base' });
      const baseState = await graph.getState(atBase.threadId);
      assert.deepEqual(
        baseState?.values.log,
        Array.from({ length: (baseStep + 1) / 2 }, (_, index) => `note q${index + 1}`),
      );
      assert.deepEqual(baseState?.forkedFrom, { threadId: 'r', step: baseStep });
      const later = history.find((entry) => entry.node === 'note') as (typeof history)[number];
      await graph.fork('r', { atStep: later.step, threadId: 'later', update: { question: 'x' } });
      const laterState = await graph.getState('later');
      assert.deepEqual(laterState?.values.log, later.values.log);
      assert.equal(laterState?.values.question, 'x');
      assert.equal(laterState?.status, 'done');
      const continued = await graph.invoke({ question: 'more' }, { threadId: 'later' });
      assert.deepEqual(continued.log, [...later.values.log, 'note more']);
      assert.equal(
        JSON.stringify(await checkpointer.read('r')),
        original,
        'the original is untouched',
      );
    });

    it('refuses a step retention folded away, naming the nearest steps that can be forked', async () => {
      const { graph, baseStep } = await compactedThread();
      await assert.rejects(graph.fork('r', { atStep: 1 }), (error: unknown) => {
        assert.ok(error instanceof ForkPointError);
        assert.match(error.message, /retention folded that step away/);
        assert.deepEqual(error.nearest, [baseStep]);
        return true;
      });
    });
  });
