import {
  answerFor,
  append,
  type Checkpointer,
  defineState,
  END,
  interrupt,
  replace,
  START,
  StateGraph,
} from '../../graph/index.ts';

/** The parent graph's state in the subgraph fixtures. */
export const parentSchema = defineState({
  log: append<string>(),
  topic: replace<string>(''),
  answer: replace<string>(''),
});
/** The research subgraph's state: the parent's channels and its own `notes`. */
export const researchSchema = defineState({
  log: append<string>(),
  topic: replace<string>(''),
  answer: replace<string>(''),
  notes: append<string>(),
});

/**
 * The research subgraph: search → check (asks "ok?" when `ask`) → summarize; `calls`
 * counts each node's runs, and `onSearch` runs inside search (where a test may crash it).
 */
export function researchSubgraph(options: { ask?: boolean; onSearch?: () => Promise<void> } = {}) {
  const calls = { search: 0, check: 0, summarize: 0 };
  const graph = new StateGraph(researchSchema)
    .addNode('search', async (state, context) => {
      calls.search += 1;
      context.emit('progress', { searching: state.topic });
      await options.onSearch?.();
      return { log: `search ${state.topic}`, notes: `note on ${state.topic}` };
    })
    .addNode('check', (_state, context) => {
      calls.check += 1;
      if (!options.ask) return undefined;
      const answer = answerFor(context.resume, 'ok');
      if (answer === undefined) return interrupt([{ key: 'ok', value: 'ok?' }]);
      return { log: `checked ${String(answer)}` };
    })
    .addNode('summarize', (state) => {
      calls.summarize += 1;
      return { log: 'summarize', answer: state.notes.join('; ') };
    })
    .addEdge(START, 'search')
    .addEdge('search', 'check')
    .addEdge('check', 'summarize')
    .addEdge('summarize', END);
  return { graph, calls };
}

/** prepare → research (the subgraph, compiled first when `compiled`) → finish; `calls` counts the parent's nodes. */
export function researchParent(
  subgraph: ReturnType<typeof researchSubgraph>['graph'],
  checkpointer?: Checkpointer,
  compiled = false,
) {
  const calls = { prepare: 0, finish: 0 };
  const graph = new StateGraph(parentSchema)
    .addNode('prepare', () => {
      calls.prepare += 1;
      return { log: 'prepare' };
    })
    .addNode('research', compiled ? subgraph.compile() : subgraph)
    .addNode('finish', (state) => {
      calls.finish += 1;
      return { log: `finish with ${state.answer}` };
    })
    .addEdge(START, 'prepare')
    .addEdge('prepare', 'research')
    .addEdge('research', 'finish')
    .addEdge('finish', END)
    .compile(checkpointer ? { checkpointer } : {});
  return { graph, calls };
}
