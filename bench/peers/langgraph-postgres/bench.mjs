// LangGraph.js PostgreSQL side of `npm run bench:graph`: the chat-shaped graph of
// bench/README.md on `@langchain/langgraph-checkpoint-postgres`, driven with the same
// protocol as Yeoul's PostgreSQL side, against the same server. Run with Node 24:
//   DATABASE_URL=postgres://… node bench.mjs [--quick]
// Each measurement uses a schema of its own in that database (created, then dropped).
// Progress goes to stderr; stdout gets exactly one line of JSON.

import { createRequire } from 'node:module';
import {
  AIMessage,
  HumanMessage,
  isAIMessage,
  isHumanMessage,
  isToolMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';

const require = createRequire(import.meta.url);
const LANGGRAPH_VERSION = require('@langchain/langgraph/package.json').version;
const SAVER_VERSION = require('@langchain/langgraph-checkpoint-postgres/package.json').version;

const URL = process.env.DATABASE_URL;
if (!URL) {
  console.error('[langgraph-postgres] DATABASE_URL is not set');
  process.exit(2);
}
const QUICK = process.argv.includes('--quick');
const scale = (n) => (QUICK ? Math.max(1, Math.round(n / 10)) : n);

const WARMUP = scale(100);
const N_POSTGRES = scale(500);
const TURNS = 50;
const CONCURRENT = 20;
const STEPS_PER_INVOKE = 5; // router, memory, agent, tools, agent
const MESSAGES_PER_TURN = 4; // user, assistant(tool call), tool, assistant

const log = (...args) => console.error('[langgraph-postgres]', ...args);
const userText = (n) => `What is 123 * 456? Please calculate it for me (turn ${n})`;

// The graph: identical to bench/peers/langgraph/bench.mjs.
const ChatState = Annotation.Root({
  ...MessagesAnnotation.spec,
  route: Annotation({ reducer: (_prev, next) => next, default: () => '' }),
  summary: Annotation({ reducer: (_prev, next) => next, default: () => '' }),
});

let toolCallSeq = 0;
const builder = new StateGraph(ChatState)
  .addNode('router', (state) => {
    if (!state.messages.findLast((m) => isHumanMessage(m))) throw new Error('no user message');
    return { route: 'agent' };
  })
  .addNode('memory', (state) => (state.messages.length <= 10_000 ? {} : { summary: '…' }))
  .addNode('agent', (state) => {
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
  })
  .addNode('tools', (state) => {
    const last = state.messages.at(-1);
    const calls = last && isAIMessage(last) ? (last.tool_calls ?? []) : [];
    return {
      messages: calls.map(
        (call) => new ToolMessage({ content: '56088', tool_call_id: call.id, name: call.name }),
      ),
    };
  })
  .addEdge(START, 'router')
  .addEdge('router', 'memory')
  .addEdge('memory', 'agent')
  .addConditionalEdges(
    'agent',
    (state) => {
      const last = state.messages.at(-1);
      return last && isAIMessage(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
    },
    ['tools', END],
  )
  .addEdge('tools', 'agent');

let threadSeq = 0;
const newThread = () => ({ configurable: { thread_id: `t${++threadSeq}` } });
const turnInput = (n) => ({ messages: [new HumanMessage(userText(n))] });
const usSince = (t0) => Number(process.hrtime.bigint() - t0) / 1000;
const round = (x) => Math.round(x * 10) / 10;
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

const admin = new pg.Pool({ connectionString: URL, max: 2 });
let schemaSeq = 0;

/** A saver on a fresh schema of its own (tables created by the saver's own setup()). */
async function freshSaver(label) {
  const schema = `lg_${label}_${process.pid}_${++schemaSeq}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const saver = PostgresSaver.fromConnString(URL, { schema });
  await saver.setup();
  return { saver, schema };
}

async function dropSaver({ saver, schema }) {
  await saver.end();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
}

/**
 * The saver's thread data (its tables but the migrations record): `bytes` on disk with indexes,
 * TOAST and free-space maps, and `rowBytes`, the live rows as stored (compressed values at
 * their compressed size), which leaves out dead row versions and page and index overhead.
 */
async function schemaBytes(schema) {
  const { rows } = await admin.query(
    `SELECT c.relname, pg_total_relation_size(c.oid)::bigint AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname <> 'checkpoint_migrations'`,
    [schema],
  );
  let bytes = 0;
  let rowBytes = 0;
  for (const row of rows) {
    bytes += Number(row.bytes);
    const stored = await admin.query(
      `SELECT coalesce(sum(pg_column_size(t.*)), 0)::bigint AS bytes FROM ${schema}.${row.relname} t`,
    );
    rowBytes += Number(stored.rows[0].bytes);
  }
  return { bytes, rowBytes };
}

async function verify() {
  const store = await freshSaver('verify');
  const graph = builder.compile({ checkpointer: store.saver });
  const cfg = newThread();
  for (let turn = 1; turn <= 3; turn++) {
    const state = await graph.invoke(turnInput(turn), cfg);
    if (state.messages.length !== turn * MESSAGES_PER_TURN) {
      throw new Error(`after turn ${turn} the thread has ${state.messages.length} messages`);
    }
  }
  await dropSaver(store);
}

/** Per step, with `durability` ("sync": each step committed before the next; "async", the default). */
async function measureSteps(durability) {
  const store = await freshSaver(`steps_${durability}`);
  const graph = builder.compile({ checkpointer: store.saver });
  let turn = 0;
  const run = () => graph.invoke(turnInput(++turn), { ...newThread(), durability });
  for (let i = 0; i < WARMUP; i++) await run();
  const samples = [];
  for (let i = 0; i < N_POSTGRES; i++) {
    const t0 = process.hrtime.bigint();
    await run();
    samples.push(usSince(t0));
  }
  await dropSaver(store);
  const sorted = Float64Array.from(samples).sort();
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  const result = {
    invokeUs: { p50: round(p50), p99: round(p99) },
    stepUs: { p50: round(p50 / STEPS_PER_INVOKE), p99: round(p99 / STEPS_PER_INVOKE) },
    count: samples.length,
    durability,
  };
  log(
    `postgres ${durability}: ${result.invokeUs.p50} µs/invoke p50, ${result.stepUs.p50} µs/step p50`,
  );
  return result;
}

async function measureStorage() {
  const store = await freshSaver('storage');
  const graph = builder.compile({ checkpointer: store.saver });
  const cfg = newThread();
  let state;
  for (let turn = 1; turn <= TURNS; turn++) state = await graph.invoke(turnInput(turn), cfg);
  if (state.messages.length !== TURNS * MESSAGES_PER_TURN) {
    throw new Error(`storage: ${state.messages.length} messages after ${TURNS} turns`);
  }
  const { bytes, rowBytes } = await schemaBytes(store.schema);
  await dropSaver(store);
  log(`storage: ${bytes} bytes on disk, ${rowBytes} bytes of rows after ${TURNS} turns`);
  return { bytes, rowBytes };
}

async function measureConcurrent() {
  const store = await freshSaver('concurrent');
  const graph = builder.compile({ checkpointer: store.saver });
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
  await dropSaver(store);
  log(`concurrent: ${CONCURRENT} sent, ${kept} kept, ${rejected.length} errors`);
  return { sent: CONCURRENT, kept, errors: rejected.length };
}

async function main() {
  const t0 = process.hrtime.bigint();
  log(`@langchain/langgraph ${LANGGRAPH_VERSION}, checkpoint-postgres ${SAVER_VERSION}`);
  try {
    await verify();
    const postgres = await measureSteps('sync');
    const postgresAsync = await measureSteps('async');
    const storage50Turns = await measureStorage();
    const concurrent = await measureConcurrent();
    log(`done in ${(usSince(t0) / 1e6).toFixed(1)} s`);
    process.stdout.write(
      `${JSON.stringify({
        name: 'langgraph-postgres',
        version: LANGGRAPH_VERSION,
        saverVersion: SAVER_VERSION,
        stepsPerInvoke: STEPS_PER_INVOKE,
        postgres,
        postgresAsync,
        storage50Turns,
        concurrent,
      })}\n`,
    );
  } finally {
    await admin.end();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
