import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  parentSchema,
  researchParent,
  researchSchema,
  researchSubgraph,
} from '../testing/internal/index.ts';
import { StateGraph } from './builder.ts';
import { append, increment, reducer, replace } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { SqliteCheckpointer } from './checkpoint/sqlite-checkpointer.ts';
import { send } from './send.ts';
import { defineState } from './state.ts';
import { combineUpdates } from './subgraph.ts';
import { END, type GraphEvent, START } from './types.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-subgraph-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/**
 * Runs the research parent on a SQLite file at `path` until its subgraph's first search,
 * where the "process dies": its storage closes and the run never goes on. The subgraph
 * (with its call counts) is returned for a second checkpointer on the same file.
 */
async function crashInsideSearch(path: string, threadId: string) {
  const first = new SqliteCheckpointer({ path });
  let reached: () => void = () => {};
  const crashed = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let crashes = 1;
  const sub = researchSubgraph({
    onSearch: async () => {
      if (crashes === 0) return;
      crashes -= 1;
      await first.close();
      reached();
      await new Promise(() => {});
    },
  });
  void researchParent(sub.graph, first).graph.run({ topic: 'tides' }, { threadId });
  await crashed;
  return sub;
}

describe('subgraphs', () => {
  for (const compiled of [false, true]) {
    it(`passes shared channels in and its updates out, keeping its own inside (${compiled ? 'compiled' : 'uncompiled'})`, async () => {
      const { graph } = researchParent(
        researchSubgraph().graph,
        new MemoryCheckpointer(),
        compiled,
      );
      const values = await graph.invoke({ topic: 'tides', log: 'start' }, { threadId: 't' });
      assert.deepEqual(values, {
        log: ['start', 'prepare', 'search tides', 'summarize', 'finish with note on tides'],
        topic: 'tides',
        answer: 'note on tides',
      });
      assert.equal('notes' in values, false, 'the private channel stayed inside');
      const second = await graph.invoke({ topic: 'waves' }, { threadId: 't' });
      assert.equal(second.log.length, 9, 'each item appended once, the earlier ones not again');
      assert.equal(second.answer, 'note on waves', 'the private channel starts fresh each run');
    });
  }

  it('runs without a checkpointer or thread too', async () => {
    const { graph } = researchParent(researchSubgraph().graph);
    const values = await graph.invoke({ topic: 'reefs' });
    assert.deepEqual(values.log, [
      'prepare',
      'search reefs',
      'summarize',
      'finish with note on reefs',
    ]);
  });

  it('nests two levels deep, with the inner events carrying the whole path', async () => {
    const middle = new StateGraph(parentSchema)
      .addNode('research', researchSubgraph().graph)
      .addNode('review', () => ({ log: 'review' }))
      .addEdge(START, 'research')
      .addEdge('research', 'review')
      .addEdge('review', END);
    const graph = new StateGraph(parentSchema)
      .addNode('outer', middle)
      .addEdge(START, 'outer')
      .addEdge('outer', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const events: GraphEvent<typeof parentSchema>[] = [];
    for await (const event of graph.stream({ topic: 'kelp' }, { threadId: 'n' })) {
      events.push(event);
    }
    const final = events.at(-1) as Extract<GraphEvent<typeof parentSchema>, { type: 'final' }>;
    assert.deepEqual(final.values.log, ['search kelp', 'summarize', 'review']);
    assert.deepEqual(
      events
        .filter((event) => event.type === 'node-start')
        .map((event) => event.path ?? [event.node]),
      [
        ['outer'],
        ['outer', 'research'],
        ['outer', 'research', 'search'],
        ['outer', 'research', 'check'],
        ['outer', 'research', 'summarize'],
        ['outer', 'review'],
      ],
    );
  });

  it('streams events from inside with their path; its own nodes keep none', async () => {
    const { graph } = researchParent(researchSubgraph().graph, new MemoryCheckpointer());
    const seen: string[] = [];
    for await (const event of graph.stream({ topic: 'tides' }, { threadId: 's' })) {
      if (event.type === 'run-start' || event.type === 'final') continue;
      seen.push(`${event.type} ${(event.path ?? [event.node]).join('/')}`);
      if (event.type === 'custom') {
        assert.deepEqual(event.path, ['research', 'search']);
        assert.deepEqual(event.data, { searching: 'tides' });
      }
      if (event.path === undefined) assert.equal('path' in event, false);
    }
    assert.deepEqual(seen, [
      'node-start prepare',
      'node-end prepare',
      'node-start research',
      'node-start research/search',
      'custom research/search',
      'node-end research/search',
      'node-start research/check',
      'node-end research/check',
      'node-start research/summarize',
      'node-end research/summarize',
      'node-end research',
      'node-start finish',
      'node-end finish',
    ]);
  });

  it('pauses the parent on an interrupt inside, answered through the parent, without re-running what ran', async () => {
    const sub = researchSubgraph({ ask: true });
    const { graph, calls } = researchParent(sub.graph, new MemoryCheckpointer());
    const paused = await graph.run({ topic: 'tides' }, { threadId: 'i' });
    assert.equal(paused.status, 'interrupted');
    const state = await graph.getState('i');
    assert.equal(state?.interrupts.length, 1);
    const question = state?.interrupts[0];
    assert.equal(question?.node, 'research');
    assert.deepEqual(question?.path, ['research', 'check']);
    assert.equal(question?.value, 'ok?');
    assert.equal(question?.id, paused.interrupts[0]?.id);
    const done = await graph.resumeRun('i', { answers: { [question?.id as string]: 'yes' } });
    assert.equal(done.status, 'done');
    assert.deepEqual(done.values.log, [
      'prepare',
      'search tides',
      'checked yes',
      'summarize',
      'finish with note on tides',
    ]);
    assert.deepEqual(calls, { prepare: 1, finish: 1 });
    assert.deepEqual(sub.calls, { search: 1, check: 2, summarize: 1 });

    const history = await graph.history('i');
    assert.deepEqual(
      history.map((entry) => `${entry.path?.join('/') ?? '-'} ${entry.kind} ${entry.step}`),
      [
        '- input 0',
        '- node 1',
        'research input 0',
        'research/search node 1',
        'research/check interrupt 2',
        '- interrupt 2',
        '- resume 3',
        'research resume 3',
        'research/check node 4',
        'research/summarize node 5',
        '- node 4',
        '- node 5',
      ],
    );
    const inner = history.find((entry) => entry.path?.join('/') === 'research/summarize');
    assert.deepEqual((inner?.values as Record<string, unknown> | undefined)?.notes, [
      'note on tides',
    ]);
  });

  it('resumes after a crash inside the subgraph, re-running only what had not finished (SQLite)', async () => {
    const path = join(directory, 'crash.sqlite');
    // The subgraph's search has run once before the crash and is not counted again below.
    const sub = await crashInsideSearch(path, 'c');
    const second = new SqliteCheckpointer({ path });
    try {
      const { graph, calls } = researchParent(sub.graph, second);
      assert.equal((await graph.getState('c'))?.status, 'running');
      const values = await graph.resume('c');
      assert.deepEqual(values.log, [
        'prepare',
        'search tides',
        'summarize',
        'finish with note on tides',
      ]);
      assert.equal(calls.prepare, 0, 'the parent node done before the crash did not run again');
      assert.deepEqual(sub.calls, { search: 2, check: 1, summarize: 1 });
      const inner = (await graph.history('c')).filter((entry) => entry.path !== undefined);
      assert.deepEqual(
        inner.map((entry) => `${entry.path?.join('/')} ${entry.kind}`),
        [
          'research input',
          'research/search node',
          'research/check node',
          'research/summarize node',
        ],
      );
    } finally {
      await second.close();
    }
  });

  it('runs a subgraph per send, each on its own thread', async () => {
    // No shared `answer`: two subgraphs writing one replace channel would be refused.
    const fanOut = defineState({ log: append<string>(), topic: replace<string>('') });
    const graph = new StateGraph(fanOut)
      .addNode('plan', () => ({ log: 'plan' }))
      .addNode('research', researchSubgraph().graph)
      .addEdge(START, 'plan')
      .addConditionalEdges(
        'plan',
        () => [send('research', { topic: 'a' }), send('research', { topic: 'b' })],
        ['research'],
      )
      .addEdge('research', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const values = await graph.invoke({}, { threadId: 'f' });
    assert.deepEqual(values.log, ['plan', 'search a', 'summarize', 'search b', 'summarize']);
  });

  it('deletes its threads with the parent thread', async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = researchParent(researchSubgraph().graph, checkpointer);
    await graph.invoke({ topic: 'tides' }, { threadId: 'd' });
    assert.equal((await checkpointer.listThreads()).length, 2);
    await graph.deleteThread('d');
    assert.deepEqual(await checkpointer.listThreads(), []);
  });

  it('finds its threads by prefix when deleting or abandoning, never by listing every thread', async () => {
    const checkpointer = new MemoryCheckpointer();
    const listed: Array<string | undefined> = [];
    const listThreads = checkpointer.listThreads.bind(checkpointer);
    checkpointer.listThreads = (options) => {
      listed.push(options?.prefix);
      return listThreads(options);
    };
    const { graph } = researchParent(researchSubgraph({ ask: true }).graph, checkpointer);
    await graph.run({ topic: 'tides' }, { threadId: 'p' });
    await graph.abandon('p', 'nobody answered');
    await graph.deleteThread('p');
    assert.ok(listed.length >= 2, `${listed.length} listings`);
    assert.ok(
      listed.every((prefix) => prefix?.startsWith('p#research@')),
      `listed with ${JSON.stringify(listed)}`,
    );
    assert.deepEqual(await listThreads(), []);
  });

  it('draws a subgraph as a nested block', () => {
    const inner = new StateGraph(researchSchema)
      .addNode('search', () => undefined)
      .addEdge(START, 'search')
      .addEdge('search', END);
    const middle = new StateGraph(parentSchema)
      .addNode('deep', inner)
      .addEdge(START, 'deep')
      .addEdge('deep', END);
    const graph = new StateGraph(parentSchema)
      .addNode('prepare', () => undefined)
      .addNode('research', middle.compile())
      .addEdge(START, 'prepare')
      .addEdge('prepare', 'research')
      .addEdge('research', END)
      .compile();
    assert.equal(
      graph.toMermaid(),
      [
        'flowchart TD',
        '  __start__([start])',
        '  n_prepare["prepare"]',
        '  subgraph n_research["research"]',
        '    n_research____start__([start])',
        '    subgraph n_research__n_deep["deep"]',
        '      n_research__n_deep____start__([start])',
        '      n_research__n_deep__n_search["search"]',
        '      n_research__n_deep____end__([end])',
        '      n_research__n_deep____start__ --> n_research__n_deep__n_search',
        '      n_research__n_deep__n_search --> n_research__n_deep____end__',
        '    end',
        '    n_research____end__([end])',
        '    n_research____start__ --> n_research__n_deep',
        '    n_research__n_deep --> n_research____end__',
        '  end',
        '  __end__([end])',
        '  __start__ --> n_prepare',
        '  n_prepare --> n_research',
        '  n_research --> __end__',
        '',
      ].join('\n'),
    );
  });

  it('refuses a shared channel of another kind in the subgraph', () => {
    const other = new StateGraph(defineState({ log: replace<string[]>([]) }))
      .addNode('search', () => undefined)
      .addEdge(START, 'search')
      .addEdge('search', END);
    assert.throws(
      () =>
        new StateGraph(parentSchema)
          .addNode('research', other)
          .addEdge(START, 'research')
          .addEdge('research', END)
          .compile(),
      (error: Error & { problems?: string[] }) =>
        error.problems?.includes(
          'subgraph "research": the shared channel "log" is append here and replace in the subgraph; it needs the same kind in both',
        ) === true,
    );
  });

  it('reports a subgraph that does not compile with the parent, naming it', () => {
    const broken = new StateGraph(researchSchema).addNode('search', () => undefined);
    assert.throws(
      () =>
        new StateGraph(parentSchema)
          .addNode('research', broken)
          .addEdge(START, 'research')
          .compile(),
      (error: Error & { problems?: string[] }) =>
        error.problems?.some((problem) => problem.startsWith('subgraph "research": ')) === true,
    );
  });
});

describe('combineUpdates', () => {
  const schema = defineState({
    last: replace(''),
    items: append<string>(),
    count: increment(),
    custom: reducer<number, number>(
      (a, b) => Math.max(a, b),
      () => 0,
    ),
  });
  it('combines several updates as applying them in turn would', () => {
    const combined = combineUpdates(
      schema,
      ['last', 'items', 'count'],
      [{ last: 'a', items: 'x', count: 1 }, { items: ['y', 'z'] }, { last: 'b', count: 2 }],
      'n',
    );
    assert.deepEqual(combined, { last: 'b', items: ['x', 'y', 'z'], count: 3 });
  });
  it('refuses several updates of a channel with a reducer of its own', () => {
    assert.throws(() => combineUpdates(schema, ['custom'], [{ custom: 1 }, { custom: 2 }], 'n'), {
      code: 'subgraph_update',
    });
  });
});

describe('a new input taking over a run a dead process left inside a subgraph', () => {
  it('ends the subgraph run too, so no thread stays running', async () => {
    const path = join(directory, 'takeover.sqlite');
    const sub = await crashInsideSearch(path, 't');
    const second = new SqliteCheckpointer({ path });
    try {
      const { graph } = researchParent(sub.graph, second);
      assert.equal((await second.listThreads({ status: 'running' })).length, 2);
      const values = await graph.invoke(
        { topic: 'waves' },
        { threadId: 't', onPendingRun: 'abandon' },
      );
      assert.ok((values.log as string[]).includes('search waves'));
      assert.deepEqual(await second.listThreads({ status: 'running' }), []);
      const statuses = (await second.listThreads()).map((thread) => thread.status).sort();
      assert.deepEqual(statuses, ['done', 'done', 'failed']);
    } finally {
      await second.close();
    }
  });
});
