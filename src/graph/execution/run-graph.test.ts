import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StateGraph } from '../builder.ts';
import { append, increment, replace } from '../channels.ts';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.ts';
import { InvalidRunConfigError } from '../errors/invalid-run-config-error.ts';
import { NodeFailedError } from '../errors/node-failed-error.ts';
import { RecursionLimitError } from '../errors/recursion-limit-error.ts';
import { RunCancelledError } from '../errors/run-cancelled-error.ts';
import { defineState } from '../state.ts';
import { END, type GraphEvent, START } from '../types.ts';

const schema = defineState({
  count: increment(),
  visited: append<string>(),
  answer: replace<string>(''),
});

/** A loop a → a that never ends on its own, with an optional error node. */
function loopGraph(options: { errorNode?: boolean; maxSteps?: number } = {}) {
  const builder = new StateGraph(schema)
    .addNode('loop', () => ({ count: 1 }))
    .addEdge(START, 'loop')
    .addConditionalEdges('loop', () => 'loop', ['loop', END]);
  if (options.errorNode) {
    builder
      .addNode('error', (_state, context) => ({
        answer: `request too complex (${(context.error as RecursionLimitError).limit} steps)`,
      }))
      .addEdge('error', END);
  }
  return builder.compile({
    ...(options.errorNode ? { errorNode: 'error' } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
  });
}

describe('run limits', () => {
  it('stops a run after 15 node executions by default with a typed error', async () => {
    await assert.rejects(
      loopGraph().invoke({}),
      (error: unknown) =>
        error instanceof RecursionLimitError &&
        error.code === 'graph_recursion_limit' &&
        error.limit === 15,
    );
  });

  it('takes the step cap from compile options and per run', async () => {
    const graph = loopGraph({ maxSteps: 4 });
    await assert.rejects(graph.invoke({}), { limit: 4 });
    await assert.rejects(graph.invoke({}, { maxSteps: 2 }), { limit: 2 });
  });

  it('refuses a step cap that is not a positive whole number, and an empty thread id', async () => {
    const graph = loopGraph();
    for (const maxSteps of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(graph.invoke({}, { maxSteps }), { code: 'graph_invalid_run_config' });
    }
    await assert.rejects(graph.invoke({}, { threadId: '' }), InvalidRunConfigError);
  });

  it('routes a run at its step cap to the error node, which sees the error', async () => {
    const state = await loopGraph({ errorNode: true, maxSteps: 5 }).invoke({});
    assert.equal(state.count, 5);
    assert.equal(state.answer, 'request too complex (5 steps)');
  });

  it('wraps a throwing node in NodeFailedError with the original as cause', async () => {
    const boom = new Error('boom');
    const graph = new StateGraph(schema)
      .addNode('bad', () => {
        throw boom;
      })
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    await assert.rejects(
      graph.invoke({}),
      (error: unknown) =>
        error instanceof NodeFailedError && error.node === 'bad' && error.cause === boom,
    );
  });

  it('routes a throwing node to the error node, once', async () => {
    const graph = new StateGraph(schema)
      .addNode('bad', async () => {
        throw new Error('tool exploded');
      })
      .addNode('error', (_state, context) => ({ answer: `sorry: ${context.error?.message}` }))
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .addEdge('error', END)
      .compile({ errorNode: 'error' });
    const state = await graph.invoke({});
    assert.equal(state.answer, 'sorry: Node "bad" failed: tool exploded');
  });

  it('fails for real when the error node itself throws', async () => {
    const graph = new StateGraph(schema)
      .addNode('bad', () => {
        throw new Error('first');
      })
      .addNode('error', () => {
        throw new Error('second');
      })
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .addEdge('error', END)
      .compile({ errorNode: 'error' });
    await assert.rejects(graph.invoke({}), { node: 'error' });
  });
});

describe('cancellation', () => {
  function slowGraph(onStep: (step: number, signal: AbortSignal) => void) {
    return new StateGraph(schema)
      .addNode('work', async (_state, context) => {
        onStep(context.step, context.signal);
        await new Promise((resolve) => setImmediate(resolve));
        return { count: 1 };
      })
      .addEdge(START, 'work')
      .addConditionalEdges('work', (state) => (state.count < 10 ? 'work' : END), ['work', END])
      .compile({ checkpointer: new MemoryCheckpointer() });
  }

  it('stops between steps when the signal fires and keeps the committed steps', async () => {
    const controller = new AbortController();
    const graph = slowGraph((step) => {
      if (step === 3) controller.abort();
    });
    await assert.rejects(
      graph.invoke({}, { threadId: 't', signal: controller.signal }),
      (error: unknown) => error instanceof RunCancelledError && error.code === 'run_cancelled',
    );
    const state = await graph.getState('t');
    assert.equal(state?.values.count, 3);
    assert.equal(state?.status, 'cancelled');
    const next = await graph.invoke({}, { threadId: 't' });
    assert.equal(next.count, 10);
  });

  it('hands the run signal to nodes', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const graph = slowGraph((_step, signal) => {
      seen = signal;
      controller.abort();
    });
    await assert.rejects(graph.invoke({}, { signal: controller.signal }), RunCancelledError);
    assert.equal(seen?.aborted, true);
  });

  it('cancels a streamed run when the consumer stops reading', async () => {
    let steps = 0;
    const graph = slowGraph(() => {
      steps += 1;
    });
    for await (const event of graph.stream({}, { threadId: 's' })) {
      if (event.type === 'node-end') break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(steps <= 2, `ran ${steps} steps after the consumer left`);
    assert.equal((await graph.getState('s'))?.status, 'cancelled');
  });
});

describe('streaming', () => {
  it('yields run-start, node-start, custom, node-end and final events in order', async () => {
    const graph = new StateGraph(schema)
      .addNode('agent', (_state, context) => {
        context.emit('token-delta', { text: '안' });
        context.emit('token-delta', { text: '녕' });
        return { answer: '안녕' };
      })
      .addNode('check', () => ({ count: 1 }))
      .addEdge(START, 'agent')
      .addEdge('agent', 'check')
      .addEdge('check', END)
      .compile();
    const events: GraphEvent<typeof schema>[] = [];
    for await (const event of graph.stream({})) events.push(event);
    assert.deepEqual(
      events.map((event) =>
        event.type === 'custom'
          ? `custom:${event.name}:${(event.data as { text: string }).text}`
          : 'node' in event
            ? `${event.type}:${event.node}`
            : event.type,
      ),
      [
        'run-start',
        'node-start:agent',
        'custom:token-delta:안',
        'custom:token-delta:녕',
        'node-end:agent',
        'node-start:check',
        'node-end:check',
        'final',
      ],
    );
    const agentEnd = events[4];
    assert.deepEqual(agentEnd?.type === 'node-end' && agentEnd.update, { answer: '안녕' });
    const final = events.at(-1);
    assert.equal(final?.type === 'final' && final.values.answer, '안녕');
    assert.equal(final?.type === 'final' && final.steps, 2);
  });

  it('ends the stream with the run error', async () => {
    const graph = new StateGraph(schema)
      .addNode('bad', () => {
        throw new Error('nope');
      })
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const event of graph.stream({})) seen.push(event.type);
    }, NodeFailedError);
    assert.deepEqual(seen, ['run-start', 'node-start']);
  });

  it('also delivers events to onEvent during invoke', async () => {
    const graph = loopGraph({ maxSteps: 3, errorNode: true });
    const nodes: string[] = [];
    await graph.invoke(
      {},
      {
        onEvent: (event) => {
          if (event.type === 'node-start') nodes.push(event.node);
        },
      },
    );
    assert.deepEqual(nodes, ['loop', 'loop', 'loop', 'error']);
  });
});
