import assert from 'node:assert/strict';
import { it } from 'node:test';
import { append, type Checkpointer, defineState, END, START, StateGraph } from '../index.ts';
import { entryFor } from './checkpointer-conformance-entries.ts';

/**
 * The conformance cases about whole runs on a backend: a paused run's questions and answers,
 * the per-task writes of a super-step, resuming a half-done one, forks. `current` is the
 * backend the running test opened (part of `checkpointerConformance`).
 */
export function runCases(current: () => Checkpointer): void {
  it('keeps a paused run: its owner, its open questions and its answers', async () => {
    const interrupts = [
      { id: 'i-1', key: 'call-1', node: 'tools', value: { tool: 'write_file' }, createdAt: 7 },
      // A subgraph's question, passed on by its node with where it was asked.
      {
        id: 'i-2',
        key: 'ok',
        node: 'tools',
        value: 'ok?',
        createdAt: 8,
        path: ['tools', 'check'],
      },
    ];
    const owner = current().instanceId;
    const entries = [
      entryFor('p', 1, { kind: 'input', node: null, owner }),
      entryFor('p', 2, {
        kind: 'interrupt',
        node: 'tools',
        next: 'tools',
        status: 'interrupted',
        owner,
        payload: { interrupts, answered: [] },
      }),
    ];
    for (const entry of entries) await current().append(entry);
    assert.deepEqual((await current().read('p')).entries, entries);
    const paused = await current().listThreads({ status: 'interrupted' });
    assert.deepEqual(
      paused.map((info) => [info.threadId, info.status]),
      [['p', 'interrupted']],
    );
    const resume = entryFor('p', 3, {
      kind: 'resume',
      node: null,
      next: 'tools',
      owner,
      payload: { interrupts, answered: ['i-1'], answers: { 'i-1': { approve: true } } },
    });
    await current().append(resume);
    assert.deepEqual((await current().read('p', 2)).entries, [resume]);
    assert.deepEqual(await current().listThreads({ status: 'interrupted' }), []);
  });

  it('keeps the per-task writes of a super-step: task places, partial work, next tasks, joins', async () => {
    const entries = [
      entryFor('s', 1, {
        kind: 'node',
        node: 'split',
        next: 'pay',
        payload: {
          interrupts: [],
          answered: [],
          tasks: [{ node: 'pay' }, { node: 'map', input: { item: '가' } }],
          joins: { '0': ['split'] },
        },
      }),
      entryFor('s', 2, {
        kind: 'task',
        node: 'map',
        payload: { interrupts: [], answered: [], task: 1, partial: true },
      }),
      entryFor('s', 3, {
        kind: 'task',
        node: 'pay',
        payload: { interrupts: [], answered: [], task: 0 },
      }),
    ];
    for (const entry of entries) await current().append(entry);
    assert.deepEqual((await current().read('s')).entries, entries);
    assert.deepEqual((await current().read('s', 2)).entries, [entries[2]]);
  });

  it('resumes a super-step a dead process left half done: only its unfinished tasks run', async () => {
    const ran: string[] = [];
    const graph = new StateGraph(defineState({ log: append<string>() }))
      .addNode('split', () => ({ log: 'split' }))
      .addNode('pay', () => {
        ran.push('pay');
        return { log: 'pay' };
      })
      .addNode('wait', () => {
        ran.push('wait');
        return { log: 'wait' };
      })
      .addNode('finish', () => {
        ran.push('finish');
        return { log: 'finish' };
      })
      .addEdge(START, 'split')
      .addEdge('split', 'pay')
      .addEdge('split', 'wait')
      .addEdge(['pay', 'wait'], 'finish')
      .addEdge('finish', END)
      .compile({ checkpointer: current() });
    const owner = 'an-instance-that-died';
    const tasks = { interrupts: [], answered: [], tasks: [{ node: 'pay' }, { node: 'wait' }] };
    const left = [
      entryFor('half', 1, {
        kind: 'input',
        node: null,
        step: 0,
        update: null,
        next: 'split',
        owner,
      }),
      entryFor('half', 2, {
        node: 'split',
        step: 1,
        update: { log: 'split' },
        next: 'pay',
        owner,
        payload: tasks,
      }),
      entryFor('half', 3, {
        kind: 'task',
        node: 'pay',
        step: 2,
        update: { log: 'pay' },
        next: 'pay',
        owner,
        payload: { interrupts: [], answered: [], task: 0 },
      }),
    ];
    for (const entry of left) await current().append(entry);
    assert.deepEqual((await graph.getState('half'))?.values.log, ['split']);
    const resumed = await graph.resume('half');
    assert.deepEqual(ran, ['wait', 'finish']);
    assert.deepEqual(resumed.log, ['split', 'pay', 'wait', 'finish']);
    assert.equal((await graph.getState('half'))?.status, 'done');
  });

  it('forks a thread at a step without changing the original, byte for byte', async () => {
    const graph = new StateGraph(defineState({ log: append<string>() }))
      .addNode('a', () => ({ log: 'a' }))
      .addNode('b', () => ({ log: 'b' }))
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile({ checkpointer: current() });
    await graph.invoke({ log: 'one' }, { threadId: 'src' });
    await graph.invoke({ log: 'two' }, { threadId: 'src' });
    const before = JSON.stringify(await current().read('src'));
    const history = await graph.history('src');
    const atA = history.findLast((entry) => entry.node === 'a') as { step: number };
    const { threadId } = await graph.fork('src', { atStep: atA.step, update: { log: 'edit' } });
    assert.deepEqual((await graph.getState(threadId))?.values.log, [
      'one',
      'a',
      'b',
      'two',
      'a',
      'edit',
    ]);
    const resumed = await graph.resume(threadId);
    assert.deepEqual(resumed.log, ['one', 'a', 'b', 'two', 'a', 'edit', 'b']);
    await graph.invoke({ log: 'three' }, { threadId });
    assert.equal(JSON.stringify(await current().read('src')), before);
    assert.deepEqual((await graph.getState(threadId))?.forkedFrom, {
      threadId: 'src',
      step: atA.step,
    });
  });
}
