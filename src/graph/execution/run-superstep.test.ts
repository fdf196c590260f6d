import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { append, replace } from '../channels.ts';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.ts';
import type { Task } from '../checkpoint/types.ts';
import { interrupt } from '../interrupt.ts';
import type { Superstep } from '../planning/superstep.ts';
import { defineState, type StateSchema } from '../state.ts';
import { RunWriter } from '../storage/run-writer.ts';
import { ThreadStore } from '../storage/thread-store.ts';
import type { ChildGraph, NodeFunction, TaskRuntime } from '../types.ts';
import { runSuperstep, type SuperstepRun } from './run-superstep.ts';

const schema = defineState({ items: append<string>(), note: replace<string>('') });

type Node = NodeFunction<StateSchema, unknown>;

/** A run of a graph with these nodes on a fresh thread of a memory checkpointer. */
async function runOf(
  nodes: Record<string, Node>,
  options: { maxConcurrency?: number; subgraphs?: Map<string, ChildGraph> } = {},
) {
  const checkpointer = new MemoryCheckpointer();
  const store = new ThreadStore(schema, checkpointer, 10);
  const writer = new RunWriter(store, await store.load('t'), 'run-1');
  const run: SuperstepRun = {
    graph: {
      schema,
      nodes: new Map(Object.entries(nodes)),
      subgraphs: options.subgraphs ?? new Map(),
      maxConcurrency: options.maxConcurrency,
      errorNode: undefined,
    },
    writer,
    threadId: 't',
    runId: 'run-1',
    signal: new AbortController().signal,
    context: undefined,
    durability: 'sync',
    checkpointer,
    onEvent: undefined,
  };
  const entries = async () => (await checkpointer.read('t', 0)).entries;
  return { run, entries };
}

const superstepOf = (...nodes: string[]): Superstep => ({
  step: 1,
  tasks: nodes.map((node): Task => ({ node })),
  writes: [],
  finished: [],
  joins: {},
});

const values = { items: [], note: '' };

describe('runSuperstep', () => {
  it('commits each task that finishes before the last, leaving the last write to the closing entry', async () => {
    const { run, entries } = await runOf({
      a: () => ({ items: 'a' }),
      b: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { items: 'b' };
      },
    });
    const outcome = await runSuperstep(run, superstepOf('a', 'b'), values, undefined, undefined);
    assert.deepEqual(outcome, {
      status: 'done',
      writes: [{ index: 0, node: 'a', update: { items: 'a' } }],
      last: { index: 1, node: 'b', update: { items: 'b' } },
    });
    assert.deepEqual(
      (await entries()).map((entry) => [entry.kind, entry.node, entry.payload?.task]),
      [['task', 'a', 0]],
    );
  });

  it('commits nothing for a lone task and hands back its update, done or paused', async () => {
    const { run, entries } = await runOf({
      a: () => ({ note: 'done' }),
      ask: () => interrupt([{ key: 'ok', value: '?' }], { note: 'half' }),
    });
    const done = await runSuperstep(run, superstepOf('a'), values, undefined, undefined);
    assert.deepEqual(done, {
      status: 'done',
      writes: [],
      last: { index: 0, node: 'a', update: { note: 'done' } },
    });
    const paused = await runSuperstep(run, superstepOf('ask'), values, undefined, undefined);
    assert.equal(paused.status, 'interrupted');
    assert.deepEqual(paused.status === 'interrupted' && paused.update, { note: 'half' });
    assert.deepEqual(await entries(), []);
  });

  it('commits the partial write of a task that paused among several', async () => {
    const { run, entries } = await runOf({
      a: () => ({ items: 'a' }),
      ask: () => interrupt([{ key: 'ok', value: '?' }], { items: 'half' }),
    });
    const outcome = await runSuperstep(run, superstepOf('a', 'ask'), values, undefined, undefined);
    assert.equal(outcome.status, 'interrupted');
    assert.equal(outcome.status === 'interrupted' && outcome.update, undefined);
    assert.deepEqual(
      (await entries()).map((entry) => [entry.node, entry.payload?.task, entry.payload?.partial]),
      [
        ['a', 0, undefined],
        ['ask', 1, true],
      ],
    );
  });

  it('reports the first failed task in task order, whichever failed first', async () => {
    const { run } = await runOf({
      slow: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('slow broke');
      },
      fast: () => {
        throw new Error('fast broke');
      },
    });
    const outcome = await runSuperstep(
      run,
      superstepOf('slow', 'fast'),
      values,
      undefined,
      undefined,
    );
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.status === 'failed' && outcome.node, 'slow');
  });

  it('runs at most maxConcurrency tasks at once', async () => {
    let running = 0;
    let most = 0;
    const node: Node = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running -= 1;
      return undefined;
    };
    const { run } = await runOf({ a: node, b: node, c: node, d: node }, { maxConcurrency: 2 });
    const outcome = await runSuperstep(
      run,
      superstepOf('a', 'b', 'c', 'd'),
      values,
      undefined,
      undefined,
    );
    assert.equal(outcome.status, 'done');
    assert.equal(most, 2);
  });

  it('hands a subgraph task its runtime: its place in the super-step and the run checkpointer', async () => {
    const handed: TaskRuntime[] = [];
    const child: ChildGraph = {
      name: 'inner',
      graph: { nodes: new Map(), edges: new Map(), joins: [], subgraphs: new Map() },
      runTask: async (_state, _context, runtime) => {
        handed.push(runtime);
        return { items: 'inner' };
      },
      bound: () => assert.fail('not used'),
    };
    const { run } = await runOf(
      { a: () => undefined, inner: () => assert.fail('called as a plain node') },
      { subgraphs: new Map([['inner', child]]) },
    );
    await runSuperstep(run, superstepOf('a', 'inner'), values, undefined, undefined);
    assert.equal(handed.length, 1);
    assert.equal(handed[0]?.task, 1);
    assert.equal(handed[0]?.checkpointer, run.checkpointer);
    assert.equal(handed[0]?.durability, 'sync');
  });
});
