import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildChatFixtureGraph, chatFixtureInput } from '../testing/internal/index.ts';
import { StateGraph } from './builder.ts';
import { append, increment } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { SqliteCheckpointer } from './checkpoint/sqlite-checkpointer.ts';
import type { Checkpointer } from './checkpoint/types.ts';
import { MissingCheckpointerError } from './errors/missing-checkpointer-error.ts';
import { NothingToResumeError } from './errors/nothing-to-resume-error.ts';
import { messages } from './messages.ts';
import { defineState } from './state.ts';
import { END, START } from './types.ts';

const backends: Array<[string, () => Checkpointer]> = [
  ['memory', () => new MemoryCheckpointer()],
  ['sqlite', () => new SqliteCheckpointer()],
];

for (const [name, open] of backends) {
  describe(`threads on the ${name} checkpointer`, () => {
    it('keeps state between runs of one thread and apart from other threads', async () => {
      const graph = buildChatFixtureGraph({ checkpointer: open() });
      await graph.invoke(chatFixtureInput(1), { threadId: 'a' });
      await graph.invoke(chatFixtureInput(2), { threadId: 'a' });
      await graph.invoke(chatFixtureInput(1), { threadId: 'b' });
      assert.equal((await graph.getState('a'))?.values.messages.length, 8);
      assert.equal((await graph.getState('b'))?.values.messages.length, 4);
      assert.equal(await graph.getState('missing'), undefined);
    });

    it('keeps every message, in arrival order, when 20 runs hit one thread at once', async () => {
      const graph = buildChatFixtureGraph({ checkpointer: open() });
      const runs = Array.from({ length: 20 }, (_, turn) =>
        graph.invoke(chatFixtureInput(turn), { threadId: 'busy' }),
      );
      await Promise.all(runs);
      const state = await graph.getState('busy');
      const users = state?.values.messages.filter((message) => message.role === 'user') ?? [];
      assert.deepEqual(
        users.map((message) => message.content),
        Array.from({ length: 20 }, (_, turn) => chatFixtureInput(turn).messages.content),
      );
      // Never interleaved: every user message is followed by its own complete tool turn.
      assert.deepEqual(
        state?.values.messages.map((message) => message.role),
        Array.from({ length: 20 }, () => ['user', 'assistant', 'tool', 'assistant']).flat(),
      );
    });

    it('runs different threads concurrently', async () => {
      const schema = defineState({ visited: append<string>() });
      let arrived = 0;
      let release: () => void = () => undefined;
      const bothArrived = new Promise<void>((resolve) => {
        release = resolve;
      });
      const graph = new StateGraph(schema)
        .addNode('meet', async () => {
          arrived += 1;
          if (arrived === 2) release();
          const timeout = new Promise((_, reject) =>
            setTimeout(() => reject(new Error('the other thread never ran alongside')), 2000),
          );
          await Promise.race([bothArrived, timeout]);
          return { visited: 'meet' };
        })
        .addEdge(START, 'meet')
        .addEdge('meet', END)
        .compile({ checkpointer: open() });
      await Promise.all([
        graph.invoke({}, { threadId: 'one' }),
        graph.invoke({}, { threadId: 'two' }),
      ]);
    });

    it('lets a later run go ahead after an earlier one on the same thread failed', async () => {
      const schema = defineState({ count: increment() });
      const graph = new StateGraph(schema)
        .addNode('maybe', (state) => {
          if (state.count === 1) throw new Error('first run fails');
          return { count: 10 };
        })
        .addEdge(START, 'maybe')
        .addEdge('maybe', END)
        .compile({ checkpointer: open() });
      const first = graph.invoke({ count: 1 }, { threadId: 't' });
      const second = graph.invoke({ count: 1 }, { threadId: 't' });
      await assert.rejects(first, { code: 'graph_node_failed' });
      assert.equal((await second).count, 12);
      const history = await graph.history('t');
      assert.deepEqual(
        history.map((entry) => `${entry.kind}:${entry.status}`),
        ['input:running', 'end:error', 'input:running', 'node:done'],
      );
    });

    it('reads the last committed state while a run is still going, without disturbing it', async () => {
      let release: () => void = () => undefined;
      let gate = Promise.resolve();
      const schema = defineState({ visited: append<string>() });
      const graph = new StateGraph(schema)
        .addNode('first', () => ({ visited: 'first' }))
        .addNode('slow', async () => {
          await gate;
          return { visited: 'slow' };
        })
        .addEdge(START, 'first')
        .addEdge('first', 'slow')
        .addEdge('slow', END)
        .compile({ checkpointer: open(), retention: { keepRuns: 1 } });
      for (let turn = 0; turn < 3; turn += 1) {
        gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const run = graph.invoke({ visited: `input ${turn}` }, { threadId: 'live' });
        // Until the first node's step is committed (the slow one waits on the gate meanwhile).
        let during = await graph.getState('live');
        for (let tries = 0; during?.next !== 'slow' && tries < 400; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          during = await graph.getState('live');
        }
        assert.equal(during?.status, 'running');
        assert.equal(during?.next, 'slow');
        assert.deepEqual(during?.values.visited.slice(-2), [`input ${turn}`, 'first']);
        release();
        await run;
      }
      const after = await graph.getState('live');
      assert.equal(after?.status, 'done');
      assert.equal(after?.values.visited.length, 9);
    });

    it('lists the history of a thread with the state after each step', async () => {
      const graph = buildChatFixtureGraph({ checkpointer: open() });
      await graph.invoke(chatFixtureInput(1), { threadId: 'h' });
      const history = await graph.history('h');
      assert.deepEqual(
        history.map((entry) => entry.node ?? entry.kind),
        ['input', 'router', 'memory', 'agent', 'tools', 'agent'],
      );
      assert.deepEqual(
        history.map((entry) => entry.values.messages.length),
        [1, 1, 1, 2, 3, 4],
      );
      assert.deepEqual(
        history.map((entry) => entry.next),
        ['router', 'memory', 'agent', 'tools', 'agent', null],
      );
      assert.equal(history.at(-1)?.status, 'done');
    });

    it('deletes a thread after the runs queued on it', async () => {
      const graph = buildChatFixtureGraph({ checkpointer: open() });
      const run = graph.invoke(chatFixtureInput(1), { threadId: 'd' });
      await graph.deleteThread('d');
      await run;
      assert.equal(await graph.getState('d'), undefined);
      await graph.invoke(chatFixtureInput(2), { threadId: 'd' });
      assert.equal((await graph.getState('d'))?.values.messages.length, 4);
    });

    it('compacts old history when retention is set, keeping the full state', async () => {
      const checkpointer = open();
      const graph = buildChatFixtureGraph({ checkpointer, retention: { keepRuns: 2 } });
      for (let turn = 1; turn <= 9; turn += 1) {
        await graph.invoke(chatFixtureInput(turn), { threadId: 'r' });
      }
      const state = await graph.getState('r');
      assert.equal(state?.values.messages.length, 36);
      const log = await checkpointer.read('r');
      assert.ok(log.base !== null, 'a base snapshot was written');
      const runsKept = new Set(log.entries.map((entry) => entry.runId)).size;
      assert.ok(runsKept >= 2 && runsKept <= 4, `kept ${runsKept} runs of history`);
      // A fresh graph on the same storage rebuilds the same state from base + entries.
      const reopened = buildChatFixtureGraph({ checkpointer });
      assert.deepEqual((await reopened.getState('r'))?.values, state?.values);
      await reopened.invoke(chatFixtureInput(10), { threadId: 'r' });
      assert.equal((await reopened.getState('r'))?.values.messages.length, 40);
    });

    it('sees what another graph instance wrote to the same storage', async () => {
      const checkpointer = open();
      const first = buildChatFixtureGraph({ checkpointer });
      const second = buildChatFixtureGraph({ checkpointer });
      await first.invoke(chatFixtureInput(1), { threadId: 'shared' });
      await second.invoke(chatFixtureInput(2), { threadId: 'shared' });
      await first.invoke(chatFixtureInput(3), { threadId: 'shared' });
      assert.equal((await first.getState('shared'))?.values.messages.length, 12);
    });

    it('refuses to resume a thread whose last run ended', async () => {
      const graph = buildChatFixtureGraph({ checkpointer: open() });
      await assert.rejects(graph.resume('none'), NothingToResumeError);
      await graph.invoke(chatFixtureInput(1), { threadId: 'done' });
      await assert.rejects(graph.resume('done'), { code: 'run_not_resumable' });
      assert.equal(await graph.abandon('done'), false);
    });
  });
}

describe('threads without a checkpointer', () => {
  it('start every run from the initial state and refuse thread operations', async () => {
    const graph = buildChatFixtureGraph();
    await graph.invoke(chatFixtureInput(1), { threadId: 'x' });
    assert.equal((await graph.invoke(chatFixtureInput(2), { threadId: 'x' })).messages.length, 4);
    await assert.rejects(graph.resume('x'), MissingCheckpointerError);
    await assert.rejects(async () => graph.getState('x'), { code: 'graph_no_checkpointer' });
  });
});

describe('messages across runs', () => {
  it('removes messages by id in a later run', async () => {
    const schema = defineState({ messages: messages<{ id?: string; text: string }>() });
    const graph = new StateGraph(schema)
      .addNode('noop', () => undefined)
      .addEdge(START, 'noop')
      .addEdge('noop', END)
      .compile({ checkpointer: new SqliteCheckpointer() });
    await graph.invoke(
      {
        messages: [
          { id: 'a', text: '1' },
          { id: 'b', text: '2' },
        ],
      },
      { threadId: 't' },
    );
    await graph.invoke({ messages: { type: 'remove', id: 'a' } }, { threadId: 't' });
    const reopened = new StateGraph(schema)
      .addNode('noop', () => undefined)
      .addEdge(START, 'noop')
      .addEdge('noop', END)
      .compile({ checkpointer: graph.checkpointer });
    assert.deepEqual((await reopened.getState('t'))?.values.messages, [{ id: 'b', text: '2' }]);
  });
});
