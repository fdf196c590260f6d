import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StateGraph } from '../builder.ts';
import { append, increment } from '../channels.ts';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.ts';
import { RunCancelledError } from '../errors/run-cancelled-error.ts';
import { RunSupersededError } from '../errors/run-superseded-error.ts';
import { interrupt } from '../interrupt.ts';
import { defineState } from '../state.ts';
import { END, type RunEnding, START } from '../types.ts';

const schema = defineState({ count: increment(), notes: append<string>() });

/** A graph counting on to the next ten, one step at a time; `onStep` sees each step. */
function countingGraph(onStep: (step: number) => void, ended: RunEnding[] = []) {
  return new StateGraph(schema)
    .addNode('work', async (_state, context) => {
      onStep(context.step);
      await new Promise((resolve) => setImmediate(resolve));
      return { count: 1 };
    })
    .addEdge(START, 'work')
    .addConditionalEdges('work', (state) => (state.count % 10 !== 0 ? 'work' : END), ['work', END])
    .compile({
      checkpointer: new MemoryCheckpointer(),
      closeRun: (_values, ending) => {
        ended.push(ending);
        const cause = ending.cause;
        return cause instanceof RunSupersededError ? { notes: [`by ${cause.byRunId}`] } : undefined;
      },
    });
}

describe('a run superseded by a newer one', () => {
  it('ends cancelled with its cause handed to closeRun, keeping its steps', async () => {
    const controller = new AbortController();
    const ended: RunEnding[] = [];
    let armed = false;
    const graph = countingGraph((step) => {
      if (armed && step === 3) {
        controller.abort(new RunSupersededError({ byRunId: 'r2', rollback: false }));
      }
    }, ended);
    await graph.invoke({}, { threadId: 't', runId: 'r0' });
    armed = true;
    await assert.rejects(
      graph.invoke({}, { threadId: 't', runId: 'r1', signal: controller.signal }),
      RunCancelledError,
    );
    const state = await graph.getState('t');
    assert.equal(state?.status, 'cancelled');
    const count = state?.values.count ?? 0;
    assert.ok(count > 10 && count < 20, `counted to ${count}`);
    assert.deepEqual(state?.values.notes, ['by r2']);
    assert.equal(ended.length, 1);
  });

  it('with rollback leaves no entry of the run, the next run numbering on from the last kept', async () => {
    const controller = new AbortController();
    let armed = false;
    const graph = countingGraph((step) => {
      if (armed && step === 3) {
        controller.abort(new RunSupersededError({ byRunId: 'r2', rollback: true }));
      }
    });
    await graph.invoke({}, { threadId: 't', runId: 'r0' });
    const before = await graph.history('t');
    armed = true;
    await assert.rejects(
      graph.invoke({}, { threadId: 't', runId: 'r1', signal: controller.signal }),
      RunCancelledError,
    );
    assert.deepEqual(await graph.history('t'), before);
    assert.equal((await graph.getState('t'))?.values.count, 10);
    await graph.invoke({}, { threadId: 't', runId: 'r2' });
    const after = await graph.history('t');
    assert.ok(after.every((entry) => entry.runId !== 'r1'));
    assert.deepEqual(
      after.map((entry) => entry.seq),
      after.map((_entry, index) => index + 1),
    );
  });

  it('abandons a paused run with rollback by removing it', async () => {
    const graph = new StateGraph(schema)
      .addNode('ask', () => interrupt([{ key: 'q', value: { question: 'may I?' } }]))
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await graph.run({ notes: ['first'] }, { threadId: 'p', runId: 'r1' });
    assert.equal((await graph.getState('p'))?.status, 'interrupted');
    const cause = new RunSupersededError({ byRunId: 'r2', rollback: true });
    assert.equal(await graph.abandon('p', 'superseded', cause), true);
    assert.equal(await graph.getState('p'), undefined);
  });

  it('reads a thread again when its log was taken back behind a cached state', async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = countingGraph(() => undefined).withCheckpointer(checkpointer, 10);
    const other = graph.withCheckpointer(checkpointer, 10);
    await graph.invoke({}, { threadId: 't', runId: 'r0' });
    const kept = (await graph.getState('t'))?.seq ?? 0;
    await graph.invoke({}, { threadId: 't', runId: 'r1' });
    assert.equal((await other.getState('t'))?.values.count, 20);
    await checkpointer.truncate('t', kept + 1);
    await graph.invoke({ notes: ['again'] }, { threadId: 't', runId: 'r2' });
    const seen = await other.getState('t');
    assert.equal(seen?.values.count, 20);
    assert.equal(seen?.runId, 'r2');
    assert.deepEqual(seen?.values.notes, ['again']);
  });
});
