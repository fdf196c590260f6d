import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StateGraph } from './builder.ts';
import { append } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { defineState } from './state.ts';
import { END, START } from './types.ts';

const schema = defineState({ log: append<string>() });

function loggingGraph() {
  const ran: string[] = [];
  const graph = new StateGraph(schema)
    .addNode('work', () => {
      ran.push('work');
      return { log: 'worked' };
    })
    .addEdge(START, 'work')
    .addEdge('work', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
  return { graph, ran };
}

describe('a closing step', () => {
  it('is recorded after the last node: known fields applied, the others kept in the history', async () => {
    const { graph } = loggingGraph();
    const result = await graph.run(
      { log: 'in' },
      {
        threadId: 't',
        closingStep: (values) => ({
          node: 'guardrail',
          update: {
            log: `after ${(values.log as string[]).length}`,
            guardrails: [{ name: 'pii' }],
          },
        }),
      },
    );
    assert.equal(result.status, 'done');
    assert.deepEqual(result.values.log, ['in', 'worked', 'after 2']);
    const history = await graph.history('t');
    assert.deepEqual(
      history.map((entry) => entry.node ?? entry.kind),
      ['input', 'work', 'guardrail'],
    );
    const last = history.at(-1);
    assert.deepEqual(last?.update, { log: 'after 2', guardrails: [{ name: 'pii' }] });
    assert.equal(last?.status, 'done');
    assert.equal(new Set(history.map((entry) => entry.runId)).size, 1);
    // The thread takes its next run as usual, and replay skips the unknown field.
    await graph.run({ log: 'again' }, { threadId: 't' });
    const state = await graph.getState('t');
    assert.deepEqual(state?.values.log, ['in', 'worked', 'after 2', 'again', 'worked']);
    assert.equal(state?.status, 'done');
  });

  it('alone, with recordOnly: the input and the step are stored and no node runs', async () => {
    const { graph, ran } = loggingGraph();
    const result = await graph.run(
      { log: 'blocked' },
      {
        threadId: 'b',
        recordOnly: true,
        closingStep: () => ({ node: 'guardrail', update: { log: 'refused' } }),
      },
    );
    assert.equal(result.status, 'done');
    assert.deepEqual(ran, []);
    assert.deepEqual(result.values.log, ['blocked', 'refused']);
    const history = await graph.history('b');
    assert.deepEqual(
      history.map((entry) => entry.node ?? entry.kind),
      ['input', 'guardrail'],
    );
    await graph.run({ log: 'next' }, { threadId: 'b' });
    assert.deepEqual(ran, ['work']);
  });

  it('is not recorded when it returns nothing', async () => {
    const { graph } = loggingGraph();
    await graph.run({ log: 'x' }, { threadId: 'n', closingStep: () => undefined });
    const history = await graph.history('n');
    assert.deepEqual(
      history.map((entry) => entry.node ?? entry.kind),
      ['input', 'work'],
    );
  });
});
