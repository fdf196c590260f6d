import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateGraph } from './builder.ts';
import { append } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import type { CheckpointEntry } from './checkpoint/types.ts';
import { InvalidRunConfigError } from './errors/invalid-run-config-error.ts';
import { defineState } from './state.ts';
import type { Durability } from './types.ts';
import { END, START } from './types.ts';

const schema = defineState({ log: append<string>() });

/** A memory checkpointer whose commits take `delayMs`, so that what waits for them shows. */
class SlowCheckpointer extends MemoryCheckpointer {
  override async append(entry: CheckpointEntry): Promise<void> {
    await sleep(5);
    return super.append(entry);
  }
}

/** one → two → three; each node records how many entries were committed when it started. */
function countingGraph(checkpointer: MemoryCheckpointer, durability?: Durability) {
  const seen = (name: string) => async (_state: unknown, context: { threadId?: string }) => {
    const stored = (await checkpointer.read(context.threadId as string)).entries.length;
    return { log: `${name} saw ${stored}` };
  };
  return new StateGraph(schema)
    .addNode('one', seen('one'))
    .addNode('two', seen('two'))
    .addNode('three', seen('three'))
    .addEdge(START, 'one')
    .addEdge('one', 'two')
    .addEdge('two', 'three')
    .addEdge('three', END)
    .compile({ checkpointer, ...(durability ? { durability } : {}) });
}

describe('durability modes', () => {
  it('sync (the default) commits each super-step before the next starts', async () => {
    const checkpointer = new SlowCheckpointer();
    const state = await countingGraph(checkpointer).invoke({}, { threadId: 't' });
    assert.deepEqual(state.log, ['one saw 1', 'two saw 2', 'three saw 3']);
    assert.equal((await checkpointer.read('t')).entries.length, 4);
  });

  it('async commits while the next super-step runs, and returns only once every write is committed', async () => {
    const checkpointer = new SlowCheckpointer();
    const graph = countingGraph(checkpointer, 'async');
    const state = await graph.invoke({}, { threadId: 't' });
    assert.ok(
      state.log.some(
        (line) => line !== 'one saw 1' && line !== 'two saw 2' && line !== 'three saw 3',
      ),
      `the run went on before its entries were stored: ${state.log}`,
    );
    assert.equal((await checkpointer.read('t')).entries.length, 4, 'all committed at return');
    assert.deepEqual((await graph.getState('t'))?.values.log, state.log);
    assert.equal((await graph.getState('t'))?.status, 'done');
  });

  it('exit commits nothing until the run ends, then everything', async () => {
    const checkpointer = new SlowCheckpointer();
    const graph = countingGraph(checkpointer, 'exit');
    const state = await graph.invoke({}, { threadId: 't' });
    assert.deepEqual(state.log, ['one saw 0', 'two saw 0', 'three saw 0']);
    assert.equal((await checkpointer.read('t')).entries.length, 4);
    const again = await graph.invoke({}, { threadId: 't' });
    assert.deepEqual(again.log.slice(3), ['one saw 4', 'two saw 4', 'three saw 4']);
  });

  it('takes the mode per run over the compiled one', async () => {
    const checkpointer = new SlowCheckpointer();
    const graph = countingGraph(checkpointer, 'exit');
    const state = await graph.invoke({}, { threadId: 't', durability: 'sync' });
    assert.deepEqual(state.log, ['one saw 1', 'two saw 2', 'three saw 3']);
  });

  it('refuses another mode at the run', async () => {
    const graph = countingGraph(new MemoryCheckpointer());
    await assert.rejects(
      graph.invoke({}, { threadId: 't', durability: 'never' as never }),
      (error: unknown) =>
        error instanceof InvalidRunConfigError &&
        error.message.includes('durability must be "sync", "async" or "exit", not "never"'),
    );
  });
});
