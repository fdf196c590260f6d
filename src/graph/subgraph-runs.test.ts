import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parentSchema, researchParent, researchSubgraph } from '../testing/internal/index.ts';
import { StateGraph } from './builder.ts';
import { append, replace } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { defineState } from './state.ts';
import { END, START } from './types.ts';

describe('forking a thread with subgraphs', () => {
  it('shows the subgraph steps before the fork point in the fork, and runs it again after', async () => {
    const sub = researchSubgraph();
    const { graph } = researchParent(sub.graph, new MemoryCheckpointer());
    await graph.invoke({ topic: 'tides' }, { threadId: 'o' });
    const history = await graph.history('o');
    const prepared = history.find((entry) => entry.node === 'prepare' && !entry.path);
    const researched = history.find((entry) => entry.node === 'research' && !entry.path);
    await graph.fork('o', { atStep: researched?.step as number, threadId: 'at-end' });
    const forked = await graph.history('at-end');
    assert.deepEqual(
      forked.filter((entry) => entry.path).map((entry) => entry.path?.join('/')),
      ['research', 'research/search', 'research/check', 'research/summarize'],
    );
    await graph.fork('o', { atStep: prepared?.step as number, threadId: 'before' });
    const values = await graph.resume('before');
    assert.deepEqual(values.log, [
      'prepare',
      'search tides',
      'summarize',
      'finish with note on tides',
    ]);
    assert.equal(sub.calls.search, 2, 'the fork ran the subgraph again');
  });
});

describe('retention with subgraphs', () => {
  it('deletes the subgraph threads of the runs it folds away, keeping those of the kept runs', async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph(parentSchema)
      .addNode('research', researchSubgraph().graph)
      .addEdge(START, 'research')
      .addEdge('research', END)
      .compile({ checkpointer, retention: { keepRuns: 2 } });
    for (let turn = 1; turn <= 5; turn += 1) {
      await graph.invoke({ topic: `t${turn}` }, { threadId: 'r' });
    }
    assert.ok((await checkpointer.read('r')).base !== null, 'retention folded older runs');
    const kept = new Set((await checkpointer.read('r')).entries.map((entry) => entry.runId));
    const inner = (await checkpointer.listThreads()).filter((thread) => thread.threadId !== 'r');
    assert.equal(inner.length, kept.size);
    for (const thread of inner) {
      assert.ok([...kept].some((runId) => thread.threadId.startsWith(`r#research@${runId}.`)));
    }
    const history = await graph.history('r');
    assert.equal(
      history.filter((entry) => entry.path?.join('/') === 'research/search').length,
      kept.size,
    );
  });
});

describe('retention with nested subgraphs', () => {
  it('keeps the nested subgraph threads of the kept runs and deletes those of the folded ones', async () => {
    const checkpointer = new MemoryCheckpointer();
    const middle = new StateGraph(parentSchema)
      .addNode('research', researchSubgraph().graph)
      .addEdge(START, 'research')
      .addEdge('research', END);
    const graph = new StateGraph(parentSchema)
      .addNode('outer', middle)
      .addEdge(START, 'outer')
      .addEdge('outer', END)
      .compile({ checkpointer, retention: { keepRuns: 2 } });
    for (let turn = 1; turn <= 5; turn += 1) {
      await graph.invoke({ topic: `t${turn}` }, { threadId: 'n' });
    }
    const kept = new Set((await checkpointer.read('n')).entries.map((entry) => entry.runId));
    const inner = (await checkpointer.listThreads()).filter((thread) => thread.threadId !== 'n');
    // Each kept run left one thread for `outer` and one nested in it for `research`.
    assert.equal(inner.length, kept.size * 2);
    for (const thread of inner) {
      assert.ok([...kept].some((runId) => thread.threadId.startsWith(`n#outer@${runId}.`)));
    }
    const searches = (await graph.history('n')).filter(
      (entry) => entry.path?.join('/') === 'outer/research/search',
    );
    assert.equal(searches.length, kept.size);
  });
});

describe('abandoning a run paused inside a subgraph', () => {
  it('cancels the subgraph run too, so no thread is left waiting on the question', async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = researchParent(researchSubgraph({ ask: true }).graph, checkpointer);
    await graph.run({ topic: 'tides' }, { threadId: 'a' });
    assert.equal((await checkpointer.listThreads({ status: 'interrupted' })).length, 2);
    assert.equal(await graph.abandon('a', 'nobody answered'), true);
    assert.deepEqual(await checkpointer.listThreads({ status: 'interrupted' }), []);
    const statuses = (await checkpointer.listThreads()).map((thread) => thread.status);
    assert.deepEqual(statuses, ['cancelled', 'cancelled']);
    const again = await graph.run({ topic: 'waves' }, { threadId: 'a' });
    assert.equal(again.status, 'interrupted', 'a new run asks afresh in a new subgraph run');
  });
});

describe('parallel subgraphs that ask', () => {
  it('pauses on both questions; answering one keeps the other open until it is answered', async () => {
    const fanOut = defineState({ log: append<string>(), topic: replace<string>('') });
    const first = researchSubgraph({ ask: true });
    const second = researchSubgraph({ ask: true });
    const graph = new StateGraph(fanOut)
      .addNode('left', first.graph)
      .addNode('right', second.graph)
      .addEdge(START, 'left')
      .addEdge(START, 'right')
      .addEdge(['left', 'right'], END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const paused = await graph.run({ topic: 'x' }, { threadId: 'p' });
    assert.deepEqual(
      paused.interrupts.map((pending) => pending.path?.join('/')),
      ['left/check', 'right/check'],
    );
    const [left, right] = paused.interrupts.map((pending) => pending.id) as [string, string];
    const half = await graph.resumeRun('p', { answers: { [left]: 'L' } });
    assert.equal(half.status, 'interrupted');
    assert.deepEqual(
      half.interrupts.map((pending) => pending.id),
      [right],
    );
    const done = await graph.resumeRun('p', { answers: { [right]: 'R' } });
    assert.equal(done.status, 'done');
    assert.deepEqual(done.values.log, [
      'search x',
      'checked L',
      'summarize',
      'search x',
      'checked R',
      'summarize',
    ]);
    assert.deepEqual(first.calls, { search: 1, check: 2, summarize: 1 });
    assert.deepEqual(second.calls, { search: 1, check: 2, summarize: 1 });
    const inner = (await graph.history('p')).filter((entry) => entry.path);
    assert.equal(inner.filter((entry) => entry.path?.join('/') === 'left/check').length, 2);
    assert.equal(inner.filter((entry) => entry.path?.join('/') === 'right/check').length, 2);
  });
});

describe('a run that fails around a paused subgraph', () => {
  it('ends the subgraph run too, leaving no thread waiting on its question', async () => {
    const fanOut = defineState({ log: append<string>(), topic: replace<string>('') });
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph(fanOut)
      .addNode('left', researchSubgraph({ ask: true }).graph)
      .addNode('right', () => {
        throw new Error('right broke');
      })
      .addEdge(START, 'left')
      .addEdge(START, 'right')
      .addEdge(['left', 'right'], END)
      .compile({ checkpointer });
    await assert.rejects(graph.run({ topic: 'x' }, { threadId: 'e' }), /right broke/);
    assert.equal((await graph.getState('e'))?.status, 'error');
    const inner = (await checkpointer.listThreads()).filter((thread) => thread.threadId !== 'e');
    assert.deepEqual(
      inner.map((thread) => thread.status),
      ['cancelled'],
    );
  });
});
