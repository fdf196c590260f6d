// LangGraph.js side of `npm run bench:graph`: the chat-shaped graph of bench/README.md,
// driven with the same protocol as Yeoul's side. Run with Node 24:
//   node bench.mjs [--quick]
// Progress goes to stderr; stdout gets exactly one line of JSON.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  AIMessage,
  HumanMessage,
  isAIMessage,
  isHumanMessage,
  isToolMessage,
  RemoveMessage,
  ToolMessage,
} from '@langchain/core/messages';
import {
  Annotation,
  END,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';

const require = createRequire(import.meta.url);
const LANGGRAPH_VERSION = require('@langchain/langgraph/package.json').version;

const QUICK = process.argv.includes('--quick');
const scale = (n) => (QUICK ? Math.max(1, Math.round(n / 10)) : n);

const WARMUP = scale(300);
const N_FAST = scale(2000); // none, memory
const N_SQLITE = scale(1000);
const TURN_THREADS = 30;
const TURNS = 50;
const CONCURRENT = 20;
const STEPS_PER_INVOKE = 5; // router, memory, agent, tools, agent
const MESSAGES_PER_TURN = 4; // user, assistant(tool call), tool, assistant
const MEMORY_LIMIT = 10_000;

const log = (...args) => console.error('[langgraph]', ...args);
const userText = (n) => `What is 123 * 456? Please calculate it for me (turn ${n})`;

// ---------------------------------------------------------------------------
// The graph
// ---------------------------------------------------------------------------

const ChatState = Annotation.Root({
  ...MessagesAnnotation.spec, // messages: append, replace/remove by id
  route: Annotation({ reducer: (_prev, next) => next, default: () => '' }),
  summary: Annotation({ reducer: (_prev, next) => next, default: () => '' }),
});

function router(state) {
  // Looks at the last user message; there is only one route in this benchmark.
  const lastUser = state.messages.findLast((m) => isHumanMessage(m));
  if (!lastUser) throw new Error('router: no user message');
  return { route: 'agent' };
}

function memory(state) {
  if (state.messages.length <= MEMORY_LIMIT) return {};
  // Never reached here: summarise and drop everything but the newest messages.
  const old = state.messages.slice(0, -MESSAGES_PER_TURN);
  return {
    summary: `${old.length} earlier messages`,
    messages: old.map((m) => new RemoveMessage({ id: m.id })),
  };
}

let toolCallSeq = 0;
function agent(state) {
  // A zero-latency fake model.
  const last = state.messages.at(-1);
  if (last && isToolMessage(last)) {
    return { messages: [new AIMessage('123 * 456 = 56,088입니다.')] };
  }
  toolCallSeq += 1;
  return {
    messages: [
      new AIMessage({
        content: '',
        tool_calls: [
          {
            id: `call_${toolCallSeq}`,
            name: 'calculator',
            args: { expression: '123 * 456' },
            type: 'tool_call',
          },
        ],
      }),
    ],
  };
}

function tools(state) {
  const last = state.messages.at(-1);
  const calls = last && isAIMessage(last) ? (last.tool_calls ?? []) : [];
  return {
    messages: calls.map(
      (call) => new ToolMessage({ content: '56088', tool_call_id: call.id, name: call.name }),
    ),
  };
}

function afterAgent(state) {
  const last = state.messages.at(-1);
  return last && isAIMessage(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
}

const builder = new StateGraph(ChatState)
  .addNode('router', router)
  .addNode('memory', memory)
  .addNode('agent', agent)
  .addNode('tools', tools)
  .addEdge(START, 'router')
  .addEdge('router', 'memory')
  .addEdge('memory', 'agent')
  .addConditionalEdges('agent', afterAgent, ['tools', END])
  .addEdge('tools', 'agent');

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

let threadSeq = 0;
const newThread = () => ({ configurable: { thread_id: `t${++threadSeq}` } });
const turnInput = (n) => ({ messages: [new HumanMessage(userText(n))] });

const usSince = (t0) => Number(process.hrtime.bigint() - t0) / 1000;
const round = (x) => Math.round(x * 10) / 10;

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted, p) {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

function summarize(samples) {
  const s = Float64Array.from(samples).sort();
  const p50 = percentile(s, 0.5);
  const p99 = percentile(s, 0.99);
  return {
    invokeUs: { p50: round(p50), p99: round(p99) },
    stepUs: { p50: round(p50 / STEPS_PER_INVOKE), p99: round(p99 / STEPS_PER_INVOKE) },
    count: s.length,
  };
}

class CheckFailed extends Error {}
function fail(msg) {
  throw new CheckFailed(msg);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'yeoul-bench-langgraph-'));
const savers = [];
function sqliteSaver(name) {
  const saver = SqliteSaver.fromConnString(path.join(tmp, name));
  savers.push(saver);
  return saver;
}
function closeSaver(saver) {
  if (saver.db.open) saver.db.close(); // last connection closed: WAL checkpointed and removed
}
function dbBytes(file) {
  let bytes = 0;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(f)) bytes += fs.statSync(f).size;
  }
  return bytes;
}

// ---------------------------------------------------------------------------
// Checks: 5 node executions per invoke, 4 messages per turn
// ---------------------------------------------------------------------------

async function verify() {
  const plain = builder.compile();
  const nodes = [];
  for await (const chunk of await plain.stream(turnInput(0), { streamMode: 'updates' })) {
    nodes.push(...Object.keys(chunk));
  }
  const expected = ['router', 'memory', 'agent', 'tools', 'agent'];
  if (nodes.join(',') !== expected.join(',')) {
    fail(`expected node updates ${expected.join(',')}, got ${nodes.join(',')}`);
  }
  if (nodes.length !== STEPS_PER_INVOKE) fail(`steps per invoke ${nodes.length}`);

  const out = await plain.invoke(turnInput(0));
  if (out.messages.length !== MESSAGES_PER_TURN) fail(`none: ${out.messages.length} messages`);
  if (out.route !== 'agent') fail(`route ${out.route}`);
  const last = out.messages.at(-1);
  if (!isAIMessage(last) || last.content !== '123 * 456 = 56,088입니다.') {
    fail(`unexpected final message ${JSON.stringify(last?.content)}`);
  }

  for (const [name, saver] of [
    ['memory', new MemorySaver()],
    ['sqlite', sqliteSaver('verify.db')],
  ]) {
    const graph = builder.compile({ checkpointer: saver });
    const cfg = newThread();
    for (let turn = 1; turn <= 3; turn++) {
      const state = await graph.invoke(turnInput(turn), cfg);
      if (state.messages.length !== turn * MESSAGES_PER_TURN) {
        fail(`${name}: after turn ${turn} the thread has ${state.messages.length} messages`);
      }
    }
    if (name === 'sqlite') closeSaver(saver);
  }
  log(
    `verified: ${STEPS_PER_INVOKE} node executions per invoke, ${MESSAGES_PER_TURN} messages per turn`,
  );
}

// ---------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Fan-out shapes (Yeoul's side: bench/lib/fan-out.ts): 3 super-steps per invoke each
// ---------------------------------------------------------------------------

const SUPERSTEPS = 3;
const MAP_ITEMS = 50;
const FanState = Annotation.Root({
  turn: Annotation({ reducer: (_prev, next) => next, default: () => 0 }),
  results: Annotation({ reducer: (prev, next) => prev.concat(next), default: () => [] }),
  total: Annotation({ reducer: (_prev, next) => next, default: () => 0 }),
});
const BRANCHES = ['b1', 'b2', 'b3', 'b4'];

function fanOutBuilder() {
  const builder = new StateGraph(FanState).addNode('router', () => ({})).addEdge(START, 'router');
  for (const name of BRANCHES) {
    builder.addNode(name, (state) => ({ results: [`${name}:${state.turn}`] }));
    builder.addEdge('router', name);
  }
  return builder
    .addNode('join', (state) => ({ total: state.results.length }))
    .addEdge(BRANCHES, 'join')
    .addEdge('join', END);
}

function mapBuilder() {
  const items = Array.from({ length: MAP_ITEMS }, (_, i) => `item-${i}`);
  return new StateGraph(FanState)
    .addNode('plan', () => ({}))
    .addNode('work', (input) => ({ results: [`done ${input.item}`] }))
    .addNode('reduce', (state) => ({ total: state.results.length }))
    .addEdge(START, 'plan')
    .addConditionalEdges('plan', () => items.map((item) => new Send('work', { item })), ['work'])
    .addEdge('work', 'reduce')
    .addEdge('reduce', END);
}

async function measureSupersteps(label, graph, n, expect, warmup = WARMUP) {
  let turn = 0;
  const run = async () => {
    const state = await graph.invoke({ turn: ++turn }, newThread());
    if (state.total !== expect) fail(`${label}: the join saw ${state.total}, not ${expect}`);
  };
  for (let i = 0; i < warmup; i++) await run();
  const samples = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await run();
    samples[i] = usSince(t0);
  }
  const s = Float64Array.from(samples).sort();
  const result = {
    invokeUs: { p50: round(percentile(s, 0.5)), p99: round(percentile(s, 0.99)) },
    superstepUs: {
      p50: round(percentile(s, 0.5) / SUPERSTEPS),
      p99: round(percentile(s, 0.99) / SUPERSTEPS),
    },
    count: n,
  };
  log(`${label}: invoke p50 ${result.invokeUs.p50} µs (super-step ${result.superstepUs.p50} µs)`);
  return result;
}

async function measureFanOut() {
  const memory = await measureSupersteps(
    'fan-out memory',
    fanOutBuilder().compile({ checkpointer: new MemorySaver() }),
    N_FAST,
    4,
  );
  const saver = sqliteSaver('fan-out.db');
  const sqlite = await measureSupersteps(
    'fan-out sqlite',
    fanOutBuilder().compile({ checkpointer: saver }),
    N_SQLITE,
    4,
  );
  const map = await measureSupersteps(
    'map sqlite',
    mapBuilder().compile({ checkpointer: saver }),
    scale(300),
    MAP_ITEMS,
    scale(30),
  );
  closeSaver(saver);
  const file = path.join(tmp, 'fan-out-storage.db');
  const storageSaver = sqliteSaver('fan-out-storage.db');
  const graph = fanOutBuilder().compile({ checkpointer: storageSaver });
  const cfg = newThread();
  for (let turn = 1; turn <= TURNS; turn++) await graph.invoke({ turn }, cfg);
  closeSaver(storageSaver);
  const storage50Turns = { bytes: dbBytes(file) };
  log(`fan-out storage: ${storage50Turns.bytes} bytes after ${TURNS} turns`);
  return { memory, sqlite, map, storage50Turns };
}

/** `durability`: LangGraph's own default ("async") unless given ("sync" commits each step first). */
async function measure(label, graph, n, withThread, durability) {
  let turn = 0;
  const options = (thread) => (durability ? { ...thread, durability } : thread);
  const run = () => graph.invoke(turnInput(++turn), withThread ? options(newThread()) : undefined);
  for (let i = 0; i < WARMUP; i++) await run();
  const samples = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await run();
    samples[i] = usSince(t0);
  }
  const result = summarize(samples);
  log(
    `${label}: invoke p50 ${result.invokeUs.p50} µs, p99 ${result.invokeUs.p99} µs ` +
      `(step p50 ${result.stepUs.p50} µs) over ${n}`,
  );
  return result;
}

async function measureTurns() {
  const saver = sqliteSaver('turns.db');
  const graph = builder.compile({ checkpointer: saver });
  const first = [];
  const last = [];
  for (let t = 0; t < TURN_THREADS; t++) {
    const cfg = newThread();
    for (let turn = 1; turn <= TURNS; turn++) {
      const t0 = process.hrtime.bigint();
      await graph.invoke(turnInput(turn), cfg);
      const us = usSince(t0);
      if (turn === 1) first.push(us);
      if (turn === TURNS) last.push(us);
    }
  }
  closeSaver(saver);
  const p50 = (xs) => round(percentile(Float64Array.from(xs).sort(), 0.5));
  const result = { turn1Us: p50(first), turn50Us: p50(last) };
  log(`turns: turn 1 p50 ${result.turn1Us} µs, turn ${TURNS} p50 ${result.turn50Us} µs`);
  return result;
}

async function measureStorage() {
  const file = path.join(tmp, 'storage.db');
  const saver = sqliteSaver('storage.db');
  const graph = builder.compile({ checkpointer: saver });
  const cfg = newThread();
  let state;
  for (let turn = 1; turn <= TURNS; turn++) state = await graph.invoke(turnInput(turn), cfg);
  if (state.messages.length !== TURNS * MESSAGES_PER_TURN) {
    fail(`storage: ${state.messages.length} messages after ${TURNS} turns`);
  }
  closeSaver(saver);
  const bytes = dbBytes(file);
  log(`storage: ${bytes} bytes after ${TURNS} turns on one thread`);
  return { bytes };
}

async function measureConcurrent() {
  const saver = sqliteSaver('concurrent.db');
  const graph = builder.compile({ checkpointer: saver });
  const cfg = newThread();
  const texts = Array.from({ length: CONCURRENT }, (_, i) => userText(i + 1));
  const settled = await Promise.allSettled(
    texts.map((text) => graph.invoke({ messages: [new HumanMessage(text)] }, cfg)),
  );
  const rejected = settled.filter((r) => r.status === 'rejected');
  for (const r of rejected.slice(0, 3)) log(`concurrent: invoke failed: ${r.reason}`);
  const snapshot = await graph.getState(cfg);
  const messages = snapshot.values.messages ?? [];
  const contents = new Set(messages.filter((m) => isHumanMessage(m)).map((m) => m.content));
  const kept = texts.filter((t) => contents.has(t)).length;
  closeSaver(saver);
  log(
    `concurrent: ${CONCURRENT} sent, ${kept} kept, ${rejected.length} errors ` +
      `(final thread has ${messages.length} messages)`,
  );
  return { sent: CONCURRENT, kept, errors: rejected.length };
}

async function main() {
  const t0 = process.hrtime.bigint();
  log(
    `@langchain/langgraph ${LANGGRAPH_VERSION} on Node ${process.version}` +
      `${QUICK ? ' (quick)' : ''}; temp dir ${tmp}`,
  );
  try {
    await verify();
    const none = await measure('none', builder.compile(), N_FAST, false);
    // Like against like: Yeoul's in-memory runs are `sync` too.
    const memory = await measure(
      'memory (sync)',
      builder.compile({ checkpointer: new MemorySaver() }),
      N_FAST,
      true,
      'sync',
    );
    // Like against like: Yeoul's default commits each step before the next ("sync").
    const sqliteCp = sqliteSaver('sqlite.db');
    const sqlite = await measure(
      'sqlite (sync)',
      builder.compile({ checkpointer: sqliteCp }),
      N_SQLITE,
      true,
      'sync',
    );
    closeSaver(sqliteCp);
    const asyncCp = sqliteSaver('sqlite-async.db');
    const sqliteAsync = await measure(
      'sqlite (async, the default)',
      builder.compile({ checkpointer: asyncCp }),
      N_SQLITE,
      true,
    );
    closeSaver(asyncCp);
    const fanOut = await measureFanOut();
    const turns = await measureTurns();
    const storage50Turns = await measureStorage();
    const concurrent = await measureConcurrent();
    const result = {
      name: 'langgraph',
      version: LANGGRAPH_VERSION,
      stepsPerInvoke: STEPS_PER_INVOKE,
      none,
      memory,
      sqlite,
      sqliteAsync,
      fanOut,
      turns,
      storage50Turns,
      concurrent,
    };
    log(`done in ${(usSince(t0) / 1e6).toFixed(1)} s`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    for (const saver of savers) closeSaver(saver);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  log(err instanceof CheckFailed ? `FAIL: ${err.message}` : (err?.stack ?? String(err)));
  process.exitCode = 1;
});
