import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateGraph } from './builder.ts';
import { append, increment, replace } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { InvalidUpdateError } from './errors/invalid-update-error.ts';
import { RecursionLimitError } from './errors/recursion-limit-error.ts';
import { answerFor, interrupt } from './interrupt.ts';
import { messages } from './messages.ts';
import { send } from './send.ts';
import { defineState } from './state.ts';
import { END, type GraphEvent, START } from './types.ts';

const schema = defineState({
  visited: append<string>(),
  notes: messages<{ id?: string; text: string }>(),
  total: increment(),
  answer: replace<string>(''),
  items: replace<string[]>([]),
});

/** A node that waits `ms`, then records its name. */
const visit =
  (name: string, ms = 0) =>
  async () => {
    if (ms > 0) await sleep(ms);
    return { visited: name, notes: { text: name }, total: 1 };
  };

/** split → a, b, c (plain edges, declared in that order) → join → END; `a` is the slowest. */
function fanOutGraph(options: { maxConcurrency?: number; checkpointer?: MemoryCheckpointer } = {}) {
  return new StateGraph(schema)
    .addNode('split', visit('split'))
    .addNode('a', visit('a', 15))
    .addNode('b', visit('b', 5))
    .addNode('c', visit('c'))
    .addNode('join', visit('join'))
    .addEdge(START, 'split')
    .addEdge('split', 'a')
    .addEdge('split', 'b')
    .addEdge('split', 'c')
    .addEdge(['a', 'b', 'c'], 'join')
    .addEdge('join', END)
    .compile(options);
}

describe('parallel branches', () => {
  it('runs the branches of a node together and merges them in the order the edges were declared', async () => {
    const events: GraphEvent<typeof schema>[] = [];
    const state = await fanOutGraph().invoke(
      {},
      { onEvent: (event) => events.push(event as never) },
    );
    assert.deepEqual(state.visited, ['split', 'a', 'b', 'c', 'join']);
    assert.deepEqual(
      state.notes.map((note) => note.text),
      ['split', 'a', 'b', 'c', 'join'],
    );
    assert.equal(state.total, 5);
    const ends = events.filter((event) => event.type === 'node-end');
    assert.deepEqual(
      ends.map((event) => [event.node, event.step]),
      [
        ['split', 1],
        ['c', 2],
        ['b', 2],
        ['a', 2],
        ['join', 3],
      ],
      'events of parallel tasks come as they finish, each with its node and super-step',
    );
    const final = events.at(-1);
    assert.equal(final?.type === 'final' && final.steps, 3, 'maxSteps counts super-steps');
  });

  it('merges append and messages updates of parallel branches in the documented order every time (200 runs)', async () => {
    const graph = new StateGraph(schema)
      .addNode('split', visit('split'))
      .addNode('left', async () => {
        await sleep(Math.random() * 2);
        return { visited: ['left-1', 'left-2'], notes: [{ text: 'left' }] };
      })
      .addNode('right', async () => {
        await sleep(Math.random() * 2);
        return { visited: 'right', notes: { text: 'right' } };
      })
      .addNode('map', async (input) => {
        await sleep(Math.random() * 2);
        return { visited: `map ${(input as unknown as { item: string }).item}` };
      })
      .addEdge(START, 'split')
      .addConditionalEdges(
        'split',
        () => ['right', 'left', send('map', { item: 'x' }), send('map', { item: 'y' })],
        ['left', 'right', 'map'],
      )
      .addEdge('left', END)
      .addEdge('right', END)
      .addEdge('map', END)
      .compile();
    const expected = ['split', 'right', 'left-1', 'left-2', 'map x', 'map y'];
    const runs = await Promise.all(Array.from({ length: 200 }, () => graph.invoke({})));
    for (const state of runs) {
      assert.deepEqual(state.visited, expected, 'router order: right, left, then the sends');
      assert.deepEqual(
        state.notes.map((note) => note.text),
        ['split', 'right', 'left'],
      );
    }
  });

  it('fails two writes to one replace channel in one super-step with concurrent_update, naming the channel and nodes', async () => {
    const graph = new StateGraph(schema)
      .addNode('split', visit('split'))
      .addNode('a', () => ({ answer: 'from a' }))
      .addNode('b', () => ({ answer: 'from b' }))
      .addEdge(START, 'split')
      .addEdge('split', 'a')
      .addEdge('split', 'b')
      .addEdge('a', END)
      .addEdge('b', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await assert.rejects(
      graph.invoke({}, { threadId: 'clash' }),
      (error: unknown) =>
        error instanceof InvalidUpdateError &&
        error.code === 'concurrent_update' &&
        error.fields[0] === 'answer' &&
        [...error.nodes].sort().join() === 'a,b' &&
        error.message.includes('"answer"'),
    );
    const state = await graph.getState('clash');
    assert.equal(state?.status, 'error');
    assert.equal(state?.values.answer, '', 'neither write was merged');
  });

  it('fans out one task per send, each with its own input, in one super-step', async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph(schema)
      .addNode('plan', () => ({ items: ['one', 'two', 'three'] }))
      .addNode('summarise', (input, context) => {
        seen.push({ input, step: context.step });
        return { visited: `summary of ${(input as unknown as { chunk: string }).chunk}` };
      })
      .addNode('report', (state) => ({ answer: state.visited.join('; ') }))
      .addEdge(START, 'plan')
      .addConditionalEdges(
        'plan',
        (state) => state.items.map((chunk) => send('summarise', { chunk })),
        ['summarise'],
      )
      .addEdge('summarise', 'report')
      .addEdge('report', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const state = await graph.invoke({}, { threadId: 'map' });
    assert.deepEqual(seen, [
      { input: { chunk: 'one' }, step: 2 },
      { input: { chunk: 'two' }, step: 2 },
      { input: { chunk: 'three' }, step: 2 },
    ]);
    assert.equal(state.answer, 'summary of one; summary of two; summary of three');
    const history = await graph.history('map');
    assert.deepEqual(
      history.map((entry) => [entry.kind, entry.node]),
      [
        ['input', null],
        ['node', 'plan'],
        ['task', 'summarise'],
        ['task', 'summarise'],
        ['node', 'summarise'],
        ['node', 'report'],
      ],
      'one entry per task; the last of the super-step completes it',
    );
    assert.deepEqual(history[2]?.values.visited, [], 'a task write waits for its super-step');
    assert.equal(history[4]?.values.visited.length, 3);
  });

  it('runs a join once, after sources that finish in different super-steps', async () => {
    let joins = 0;
    const graph = new StateGraph(schema)
      .addNode('a', visit('a'))
      .addNode('b', visit('b'))
      .addNode('b2', visit('b2'))
      .addNode('join', () => {
        joins += 1;
        return { visited: 'join' };
      })
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge('b', 'b2')
      .addEdge(['a', 'b2'], 'join')
      .addEdge('join', END)
      .compile();
    const state = await graph.invoke({});
    assert.deepEqual(state.visited, ['a', 'b', 'b2', 'join']);
    assert.equal(joins, 1);
  });

  it('counts super-steps, not tasks, against maxSteps', async () => {
    await fanOutGraph().invoke({}, { maxSteps: 3 });
    await assert.rejects(
      fanOutGraph().invoke({}, { maxSteps: 2 }),
      (error: unknown) => error instanceof RecursionLimitError && error.node === 'join',
    );
  });

  it('runs at most maxConcurrency tasks at once', async () => {
    let running = 0;
    let most = 0;
    const counted = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(3);
      running -= 1;
      return { visited: name };
    };
    const build = (maxConcurrency?: number) =>
      new StateGraph(schema)
        .addNode('a', counted('a'))
        .addNode('b', counted('b'))
        .addNode('c', counted('c'))
        .addNode('d', counted('d'))
        .addEdge(START, 'a')
        .addEdge(START, 'b')
        .addEdge(START, 'c')
        .addEdge(START, 'd')
        .addEdge('a', END)
        .addEdge('b', END)
        .addEdge('c', END)
        .addEdge('d', END)
        .compile(maxConcurrency === undefined ? {} : { maxConcurrency });
    assert.deepEqual((await build(2).invoke({})).visited, ['a', 'b', 'c', 'd']);
    assert.equal(most, 2);
    most = 0;
    await build().invoke({});
    assert.equal(most, 4);
  });

  it('pauses a super-step when one branch asks, and re-runs only that branch on resume', async () => {
    const effects: string[] = [];
    const graph = new StateGraph(schema)
      .addNode('pay', () => {
        effects.push('pay');
        return { visited: 'paid' };
      })
      .addNode('approve', (_state, context) => {
        effects.push('approve');
        const answer = answerFor(context.resume, 'ok');
        if (answer === undefined)
          return interrupt([{ key: 'ok', value: 'ship it?' }], { total: 1 });
        return { visited: `approved ${String(answer)}` };
      })
      .addNode('join', () => {
        effects.push('join');
        return { visited: 'joined' };
      })
      .addEdge(START, 'pay')
      .addEdge(START, 'approve')
      .addEdge(['pay', 'approve'], 'join')
      .addEdge('join', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const paused = await graph.run({}, { threadId: 't' });
    assert.equal(paused.status, 'interrupted');
    assert.deepEqual(
      paused.interrupts.map((pending) => [pending.node, pending.key]),
      [['approve', 'ok']],
    );
    const id = paused.interrupts[0]?.id as string;
    const done = await graph.resume('t', { answers: { [id]: 'yes' } });
    assert.deepEqual(effects, ['pay', 'approve', 'approve', 'join']);
    assert.deepEqual(done.visited, ['paid', 'approved yes', 'joined']);
    assert.equal(done.total, 1, "the asking branch's partial work is kept once");
  });

  it("routes a super-step whose branch throws to the error node, dropping the branches' writes", async () => {
    const graph = new StateGraph(schema)
      .addNode('ok', visit('ok'))
      .addNode('broken', () => {
        throw new Error('boom');
      })
      .addNode('error', (_state, context) => ({
        answer: `recovered from ${context.error?.message}`,
      }))
      .addEdge(START, 'ok')
      .addEdge(START, 'broken')
      .addEdge('ok', END)
      .addEdge('broken', END)
      .addEdge('error', END)
      .compile({ errorNode: 'error', checkpointer: new MemoryCheckpointer() });
    const state = await graph.invoke({}, { threadId: 'e' });
    assert.match(state.answer, /recovered from Node "broken" failed/);
    assert.deepEqual(state.visited, [], 'the failed super-step merged nothing');
    assert.deepEqual((await graph.getState('e'))?.values.visited, []);
  });

  it('cancels a super-step of several tasks and records the run as cancelled', async () => {
    const controller = new AbortController();
    const graph = new StateGraph(schema)
      .addNode('quick', visit('quick'))
      .addNode('slow', async (_state, context) => {
        controller.abort();
        await sleep(5);
        context.signal.throwIfAborted();
        return { visited: 'slow' };
      })
      .addEdge(START, 'quick')
      .addEdge(START, 'slow')
      .addEdge('quick', END)
      .addEdge('slow', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await assert.rejects(graph.invoke({}, { threadId: 'c', signal: controller.signal }), {
      code: 'run_cancelled',
    });
    assert.equal((await graph.getState('c'))?.status, 'cancelled');
  });
});
