import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StateGraph } from './builder.ts';
import { append, replace } from './channels.ts';
import { GraphValidationError } from './errors/graph-validation-error.ts';
import { InvalidRouteError } from './errors/invalid-route-error.ts';
import { defineState } from './state.ts';
import { END, START } from './types.ts';

const schema = defineState({
  route: replace<string>(''),
  visited: append<string>(),
});

const visit = (name: string) => () => ({ visited: name });

function problemsOf(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    assert.ok(error instanceof GraphValidationError);
    assert.equal(error.code, 'graph_invalid');
    return error.problems;
  }
  assert.fail('the graph compiled');
}

describe('graph builder', () => {
  it('runs plain edges from START to END', async () => {
    const graph = new StateGraph(schema)
      .addNode('a', visit('a'))
      .addNode('b', visit('b'))
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile();
    assert.deepEqual((await graph.invoke({})).visited, ['a', 'b']);
  });

  it('routes by the router of a conditional edge', async () => {
    const graph = new StateGraph(schema)
      .addNode('router', () => undefined)
      .addNode('rag', visit('rag'))
      .addNode('agent', visit('agent'))
      .addEdge(START, 'router')
      .addConditionalEdges('router', (state) => state.route, ['rag', 'agent'])
      .addEdge('rag', END)
      .addEdge('agent', END)
      .compile();
    assert.deepEqual((await graph.invoke({ route: 'rag' })).visited, ['rag']);
    assert.deepEqual((await graph.invoke({ route: 'agent' })).visited, ['agent']);
  });

  it('fails a run whose router returns an undeclared destination', async () => {
    const graph = new StateGraph(schema)
      .addNode('router', () => undefined)
      .addNode('agent', visit('agent'))
      .addEdge(START, 'router')
      .addConditionalEdges('router', (state) => state.route, ['agent', END])
      .addEdge('agent', END)
      .compile();
    await assert.rejects(
      graph.invoke({ route: 'tools' }),
      (error: unknown) =>
        error instanceof InvalidRouteError &&
        error.code === 'graph_invalid_route' &&
        error.route === 'tools' &&
        /agent, __end__/.test(error.message),
    );
  });

  it('reports every problem of a declaration at once', () => {
    const problems = problemsOf(() =>
      new StateGraph(schema)
        .addNode('a', visit('a'))
        .addNode('a', visit('a'))
        .addNode(END, visit('x'))
        .addNode('orphan', visit('orphan'))
        .addNode('dangling', visit('dangling'))
        .addEdge('a', 'ghost')
        .addEdge('ghost', 'a')
        .addEdge('orphan', END)
        .addConditionalEdges('dangling', () => 'nowhere', ['nowhere'])
        .compile({ errorNode: 'missing', maxSteps: 0 }),
    );
    const expected = [
      'node "a" is added twice',
      '"__end__" is a reserved node name',
      'no edge leaves START',
      'the edge "a" → "ghost" goes to an unknown node',
      'an edge leaves unknown node "ghost"',
      'declares unknown destination "nowhere"',
      'errorNode "missing" is not a node of the graph',
      'maxSteps must be a positive whole number',
      'node "orphan" cannot be reached from START',
    ];
    for (const text of expected) {
      assert.ok(
        problems.some((problem) => problem.includes(text)),
        `missing "${text}" in:\n${problems.join('\n')}`,
      );
    }
  });

  it('refuses a node without an outgoing edge, and a join from or to unknown nodes', () => {
    const problems = problemsOf(() =>
      new StateGraph(schema)
        .addNode('a', visit('a'))
        .addNode('b', visit('b'))
        .addEdge(START, 'a')
        .addEdge('a', 'b')
        .addEdge('a', END)
        .addEdge(['a', 'ghost'], 'nowhere')
        .compile(),
    );
    assert.ok(problems.some((problem) => problem.includes('node "b" has no outgoing edge')));
    assert.ok(
      problems.some((problem) => problem.includes('waits for "ghost", which is not a node')),
    );
    assert.ok(
      problems.some((problem) => problem.includes('join into "nowhere" goes to an unknown')),
    );
    assert.ok(!problems.some((problem) => problem.includes('"a"')), 'two edges out of a fan out');
  });

  it('refuses maxConcurrency and durability values it does not know', () => {
    const problems = problemsOf(() =>
      new StateGraph(schema)
        .addNode('a', visit('a'))
        .addEdge(START, 'a')
        .addEdge('a', END)
        .compile({ maxConcurrency: 0, durability: 'eventually' as never }),
    );
    assert.ok(problems.some((problem) => problem.includes('maxConcurrency must be a positive')));
    assert.ok(
      problems.some((problem) =>
        problem.includes('durability must be "sync", "async" or "exit", not "eventually"'),
      ),
    );
  });

  it('treats nodes reachable only from the error node as reachable', () => {
    new StateGraph(schema)
      .addNode('a', visit('a'))
      .addNode('error', visit('error'))
      .addNode('report', visit('report'))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .addEdge('error', 'report')
      .addEdge('report', END)
      .compile({ errorNode: 'error' });
  });

  it('draws the graph as Mermaid with solid and dashed edges', () => {
    const graph = new StateGraph(schema)
      .addNode('agent', visit('agent'))
      .addNode('tools', visit('tools'))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', () => END, ['tools', END])
      .addEdge('tools', 'agent')
      .compile();
    assert.equal(
      graph.toMermaid(),
      [
        'flowchart TD',
        '  __start__([start])',
        '  n_agent["agent"]',
        '  n_tools["tools"]',
        '  __end__([end])',
        '  __start__ --> n_agent',
        '  n_agent -.-> n_tools',
        '  n_agent -.-> __end__',
        '  n_tools --> n_agent',
        '',
      ].join('\n'),
    );
  });

  it('draws fan-out as several solid edges and a join as thick edges from each source', () => {
    const graph = new StateGraph(schema)
      .addNode('a', visit('a'))
      .addNode('b', visit('b'))
      .addNode('c', visit('c'))
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(['a', 'b'], 'c')
      .addEdge('c', END)
      .compile();
    const lines = graph.toMermaid().split('\n');
    for (const line of [
      '  __start__ --> n_a',
      '  __start__ --> n_b',
      '  n_a ==> n_c',
      '  n_b ==> n_c',
      '  n_c --> __end__',
    ]) {
      assert.ok(lines.includes(line), line);
    }
  });

  it('gives node names with odd characters safe Mermaid ids', () => {
    const graph = new StateGraph(schema)
      .addNode('call "tool" 1', visit('x'))
      .addEdge(START, 'call "tool" 1')
      .addEdge('call "tool" 1', END)
      .compile();
    assert.match(graph.toMermaid(), /n_call_20__22_tool_22__20_1\["call #quot;tool#quot; 1"\]/);
  });
});
