// The fan-out shapes of `bench:graph` (parallel branches and `send`), Yeoul's side;
// bench/peers/langgraph/bench.mjs builds the same graphs with LangGraph.js:
// - fan-out: router → b1, b2, b3, b4 (in parallel) → join → END, zero-latency nodes:
//   3 super-steps per invoke;
// - map: plan → one `send('work', {item})` per item (50) → reduce → END: 3 super-steps.
import { existsSync, statSync } from 'node:fs';
import {
  append,
  type Checkpointer,
  defineState,
  END,
  replace,
  START,
  StateGraph,
  send,
} from '../../src/graph/index.ts';
import { microsecondsSince, summarize } from './stats.ts';

/** Super-steps per invoke of both shapes. */
export const superstepsPerInvoke = 3;
/** Items the map fans out to. */
export const mapItems = 50;

const schema = defineState({
  turn: replace<number>(0),
  results: append<string>(),
  total: replace<number>(0),
});

const branches = ['b1', 'b2', 'b3', 'b4'];

/** router → 4 parallel branches → join → END. */
export function buildFanOutGraph(checkpointer?: Checkpointer) {
  const builder = new StateGraph(schema).addNode('router', () => undefined);
  builder.addEdge(START, 'router');
  for (const name of branches) {
    builder.addNode(name, (state) => ({ results: `${name}:${state.turn}` }));
    builder.addEdge('router', name);
  }
  return builder
    .addNode('join', (state) => ({ total: state.results.length }))
    .addEdge(branches, 'join')
    .addEdge('join', END)
    .compile(checkpointer ? { checkpointer } : {});
}

/** plan → 50 sends → reduce → END. */
export function buildMapGraph(checkpointer?: Checkpointer) {
  const items = Array.from({ length: mapItems }, (_, index) => `item-${index}`);
  return new StateGraph(schema)
    .addNode('plan', () => undefined)
    .addNode('work', (input) => ({
      results: `done ${(input as unknown as { item: string }).item}`,
    }))
    .addNode('reduce', (state) => ({ total: state.results.length }))
    .addEdge(START, 'plan')
    .addConditionalEdges('plan', () => items.map((item) => send('work', { item })), ['work'])
    .addEdge('work', 'reduce')
    .addEdge('reduce', END)
    .compile(checkpointer ? { checkpointer } : {});
}

type Graph = ReturnType<typeof buildFanOutGraph>;

/** µs per invoke and per super-step (p50, p99), each invoke on a new thread when `threads`. */
export async function timeSupersteps(
  graph: Graph,
  options: { count: number; warmup: number; label: string; threads: boolean; expect: number },
  log: (...parts: unknown[]) => void,
) {
  const run = async (index: number, prefix: string) => {
    const state = await graph.invoke(
      { turn: index },
      options.threads ? { threadId: `${options.label}-${prefix}${index}` } : {},
    );
    if (state.total !== options.expect) {
      throw new Error(
        `${options.label}: the join saw ${state.total} results, not ${options.expect}`,
      );
    }
  };
  for (let index = 0; index < options.warmup; index += 1) await run(index, 'warm-');
  const samples: number[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const start = process.hrtime.bigint();
    await run(index, '');
    samples.push(microsecondsSince(start));
  }
  const invokeUs = summarize(samples);
  const superstepUs = summarize(samples.map((sample) => sample / superstepsPerInvoke));
  log(`${options.label}: ${invokeUs.p50} µs/invoke p50, ${superstepUs.p50} µs/super-step p50`);
  return { invokeUs, superstepUs, count: options.count };
}

/** Bytes of a SQLite file (with its WAL) after `turns` fan-out turns on one thread. */
export async function fanOutStorage(
  checkpointer: Checkpointer & { close(): Promise<void> },
  path: string,
  turns: number,
) {
  const graph = buildFanOutGraph(checkpointer);
  for (let turn = 1; turn <= turns; turn += 1) {
    await graph.invoke({ turn }, { threadId: 'fan-out-storage' });
  }
  await checkpointer.close();
  let bytes = 0;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path + suffix)) bytes += statSync(path + suffix).size;
  }
  return { bytes };
}
