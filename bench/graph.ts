// `npm run bench:graph [-- --quick] [-- --only postgres]`: Yeoul's graph runtime against
// LangGraph.js on the chat-shaped graph of bench/README.md, both measured in this one
// invocation; the PostgreSQL checkpointers on one PostgreSQL server (bench/lib/postgres-graph.ts).
// `--only postgres` runs just that part.
// Progress goes to stderr; the last line on stdout is one JSON object with `targets`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCheckpointer, SqliteCheckpointer } from '../src/graph/index.ts';
import { buildChatFixtureGraph, chatFixtureInput } from '../src/testing/internal/index.ts';
import { onlyPostgres } from './lib/bench-postgres.ts';
import { concurrentTurns, measureConcurrentTurns } from './lib/concurrent-turns.ts';
import {
  buildFanOutGraph,
  buildMapGraph,
  fanOutStorage,
  mapItems,
  timeSupersteps,
} from './lib/fan-out.ts';
import { benchPostgres } from './lib/postgres-graph.ts';
import { microsecondsSince, ratio, summarize, target } from './lib/stats.ts';

const quick = process.argv.includes('--quick');
// DATABASE_URL is for the PostgreSQL part alone: the other children run without it.
const { DATABASE_URL: databaseUrl, ...childEnv } = process.env;
const scale = (count: number) => (quick ? Math.max(1, Math.round(count / 10)) : count);
const warmup = scale(300);
const fastCount = scale(2000);
const sqliteCount = scale(1000);
const stepsPerInvoke = 5;
const turnThreads = 30;
const turns = 50;
const rssCounts = quick ? [1_000, 10_000] : [10_000, 100_000];

const log = (...parts: unknown[]) => console.error('[yeoul]', ...parts);
const directory = mkdtempSync(join(tmpdir(), 'yeoul-bench-graph-'));
let fileCounter = 0;
const freshFile = () => join(directory, `bench-${++fileCounter}.sqlite`);

type Graph = ReturnType<typeof buildChatFixtureGraph>;

async function timeInvokes(graph: Graph, count: number, label: string, useThreads: boolean) {
  for (let index = 0; index < warmup; index += 1) {
    await graph.invoke(
      chatFixtureInput(index),
      useThreads ? { threadId: `${label}-warm-${index}` } : {},
    );
  }
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const config = useThreads ? { threadId: `${label}-${index}` } : {};
    const start = process.hrtime.bigint();
    const state = await graph.invoke(chatFixtureInput(index), config);
    samples.push(microsecondsSince(start));
    if (state.messages.length !== 4)
      throw new Error(`${label}: a turn added ${state.messages.length} messages, not 4`);
  }
  const invokeUs = summarize(samples);
  const stepUs = summarize(samples.map((sample) => sample / stepsPerInvoke));
  log(`${label}: ${invokeUs.p50} µs/invoke p50, ${stepUs.p50} µs/step p50 (${count} invokes)`);
  return { invokeUs, stepUs, count };
}

/** The fan-out shapes (bench/lib/fan-out.ts): in memory, on SQLite, a 50-item map, storage. */
async function measureFanOut() {
  const fanOut = { warmup, threads: true, expect: 4 };
  const memory = await timeSupersteps(
    buildFanOutGraph(new MemoryCheckpointer()),
    { ...fanOut, count: fastCount, label: 'fan-out memory' },
    log,
  );
  const checkpointer = new SqliteCheckpointer({ path: freshFile() });
  const sqlite = await timeSupersteps(
    buildFanOutGraph(checkpointer),
    { ...fanOut, count: sqliteCount, label: 'fan-out sqlite' },
    log,
  );
  const map = await timeSupersteps(
    buildMapGraph(checkpointer),
    { warmup: scale(30), threads: true, expect: mapItems, count: scale(300), label: 'map sqlite' },
    log,
  );
  await checkpointer.close();
  const path = freshFile();
  const storage = await fanOutStorage(new SqliteCheckpointer({ path }), path, turns);
  log(`fan-out storage: ${storage.bytes} bytes after ${turns} turns on one thread`);
  return { memory, sqlite, map, storage50Turns: storage };
}

async function checkShape() {
  const graph = buildChatFixtureGraph();
  const nodes: string[] = [];
  for await (const event of graph.stream(chatFixtureInput(0))) {
    if (event.type === 'node-end') nodes.push(event.node);
  }
  if (nodes.join() !== 'router,memory,agent,tools,agent') {
    throw new Error(`the graph ran ${nodes.join(' → ')}, not the 5 steps of a tool turn`);
  }
}

async function measureTurns() {
  const checkpointer = new SqliteCheckpointer({ path: freshFile() });
  const graph = buildChatFixtureGraph({ checkpointer });
  const first: number[] = [];
  const last: number[] = [];
  for (let thread = 0; thread < turnThreads; thread += 1) {
    for (let turn = 1; turn <= turns; turn += 1) {
      const start = process.hrtime.bigint();
      await graph.invoke(chatFixtureInput(turn), { threadId: `turns-${thread}` });
      const elapsed = microsecondsSince(start);
      if (turn === 1) first.push(elapsed);
      if (turn === turns) last.push(elapsed);
    }
  }
  await checkpointer.close();
  const result = { turn1Us: summarize(first).p50, turn50Us: summarize(last).p50 };
  log(`turns: turn 1 ${result.turn1Us} µs, turn 50 ${result.turn50Us} µs`);
  return result;
}

async function measureStorage() {
  const path = freshFile();
  const checkpointer = new SqliteCheckpointer({ path });
  const graph = buildChatFixtureGraph({ checkpointer });
  for (let turn = 1; turn <= turns; turn += 1) {
    await graph.invoke(chatFixtureInput(turn), { threadId: 'storage' });
  }
  await checkpointer.close();
  let bytes = 0;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path + suffix)) bytes += statSync(path + suffix).size;
  }
  log(`storage: ${bytes} bytes after ${turns} turns on one thread`);
  return { bytes };
}

async function measureConcurrent() {
  const checkpointer = new SqliteCheckpointer({ path: freshFile() });
  try {
    return await measureConcurrentTurns(checkpointer, log);
  } finally {
    await checkpointer.close();
  }
}

/**
 * The V8 flags `npm start` runs Yeoul with (package.json), so that memory is measured
 * as Yeoul runs. The young generation is capped there: with V8's default cap, any steady
 * survival (a cache of recent threads) grows it to ~130 MB while the live heap stays flat.
 */
function startFlags(): string[] {
  const manifest = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'),
  );
  return (manifest.scripts.start as string)
    .split(/\s+/)
    .filter((part) => part.startsWith('--max-'));
}

/** RSS after 10k and 100k invokes, each on a new SQLite thread, in a fresh process. */
function measureRss(flags: string[]) {
  const output = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      ...flags,
      join(import.meta.dirname, 'lib', 'graph-rss.ts'),
      freshFile(),
      ...rssCounts.map(String),
    ],
    { env: childEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const rss = JSON.parse(output.trim().split('\n').at(-1) as string) as Record<string, number>;
  log(`rss (${flags.join(' ') || 'V8 defaults'}): ${JSON.stringify(rss)}`);
  return { flags, ...rss } as { flags: string[] } & Record<string, number>;
}

function runPeer() {
  const peer = join(import.meta.dirname, 'peers', 'langgraph');
  if (!existsSync(join(peer, 'node_modules', '@langchain', 'langgraph'))) {
    log('installing the LangGraph.js peer (bench/peers/langgraph/install.sh)');
    execFileSync('bash', [join(peer, 'install.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const result = spawnSync(
    process.execPath,
    [join(peer, 'bench.mjs'), ...(quick ? ['--quick'] : [])],
    {
      cwd: peer,
      env: childEnv,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`the LangGraph.js peer failed (exit ${result.status})`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
}

try {
  await checkShape();
  if (onlyPostgres()) {
    const postgres = await benchPostgres({ quick, log, databaseUrl });
    console.log(
      JSON.stringify({
        bench: 'graph',
        quick,
        only: 'postgres',
        node: process.version,
        postgres: { ours: postgres.ours, langgraph: postgres.langgraph },
        ratios: postgres.ratios,
        targets: postgres.targets,
      }),
    );
    rmSync(directory, { recursive: true, force: true });
    process.exit(0);
  }
  const none = await timeInvokes(buildChatFixtureGraph(), fastCount, 'none', false);
  const memory = await timeInvokes(
    buildChatFixtureGraph({ checkpointer: new MemoryCheckpointer() }),
    fastCount,
    'memory',
    true,
  );
  const sqliteCheckpointer = new SqliteCheckpointer({ path: freshFile() });
  const sqlite = await timeInvokes(
    buildChatFixtureGraph({ checkpointer: sqliteCheckpointer }),
    sqliteCount,
    'sqlite',
    true,
  );
  await sqliteCheckpointer.close();
  // LangGraph.js commits in the background by default ("async"); this is the same mode.
  const asyncCheckpointer = new SqliteCheckpointer({ path: freshFile() });
  const sqliteAsync = await timeInvokes(
    buildChatFixtureGraph({ checkpointer: asyncCheckpointer, durability: 'async' }),
    sqliteCount,
    'sqlite async',
    true,
  );
  await asyncCheckpointer.close();
  const fanOut = await measureFanOut();
  const turnsResult = await measureTurns();
  const storage50Turns = await measureStorage();
  const concurrentResult = await measureConcurrent();
  const rss = measureRss(startFlags());
  const rssDefaultV8 = measureRss([]);
  log('running the LangGraph.js peer');
  const langgraph = runPeer();
  const postgres = await benchPostgres({ quick, log, databaseUrl });

  const ours = {
    name: 'yeoul',
    stepsPerInvoke,
    none,
    memory,
    sqlite,
    sqliteAsync,
    fanOut,
    turns: turnsResult,
    storage50Turns,
    concurrent: concurrentResult,
    rss,
    rssDefaultV8,
  };
  const [smallCount, largeCount] = rssCounts as [number, number];
  const stepMemory = ratio(langgraph.memory.stepUs.p50, memory.stepUs.p50);
  const stepSqlite = ratio(langgraph.sqlite.stepUs.p50, sqlite.stepUs.p50);
  const storage50TurnsRatio = ratio(langgraph.storage50Turns.bytes, storage50Turns.bytes);
  const stepSqliteAsync = ratio(langgraph.sqliteAsync.stepUs.p50, sqliteAsync.stepUs.p50);
  const fanoutMemory = ratio(
    langgraph.fanOut.memory.superstepUs.p50,
    fanOut.memory.superstepUs.p50,
  );
  const fanoutSqlite = ratio(
    langgraph.fanOut.sqlite.superstepUs.p50,
    fanOut.sqlite.superstepUs.p50,
  );
  const mapSqlite = ratio(langgraph.fanOut.map.invokeUs.p50, fanOut.map.invokeUs.p50);
  const storageFanout = ratio(langgraph.fanOut.storage50Turns.bytes, fanOut.storage50Turns.bytes);
  const report = {
    bench: 'graph',
    quick,
    node: process.version,
    ours,
    langgraph,
    postgres: { ours: postgres.ours, langgraph: postgres.langgraph },
    ratios: {
      ...postgres.ratios,
      stepNone: ratio(langgraph.none.stepUs.p50, none.stepUs.p50),
      stepMemory,
      stepSqlite,
      storage50Turns: storage50TurnsRatio,
      stepSqliteAsync,
      fanoutMemory,
      fanoutSqlite,
      mapSqlite,
      storageFanout,
      langgraphTurn50OverTurn1: ratio(langgraph.turns.turn50Us, langgraph.turns.turn1Us),
      rssGrowthDefaultV8: ratio(
        rssDefaultV8[`rssAfter${largeCount}`] as number,
        rssDefaultV8[`rssAfter${smallCount}`] as number,
      ),
    },
    targets: {
      stepMemoryRatio: target(stepMemory, 20, 'higher'),
      stepSqliteRatio: target(stepSqlite, 15, 'higher'),
      storage50TurnsRatio: target(storage50TurnsRatio, 8, 'higher'),
      stepSqliteAsyncRatio: target(stepSqliteAsync, 15, 'higher'),
      fanoutMemoryRatio: target(fanoutMemory, 10, 'higher'),
      fanoutSqliteRatio: target(fanoutSqlite, 5, 'higher'),
      mapSqliteRatio: target(mapSqlite, 5, 'higher'),
      storageFanoutRatio: target(storageFanout, 20, 'higher'),
      turn50OverTurn1: target(ratio(turnsResult.turn50Us, turnsResult.turn1Us), 1.1, 'lower'),
      rssGrowth: target(
        ratio(rss[`rssAfter${largeCount}`] as number, rss[`rssAfter${smallCount}`] as number),
        1.1,
        'lower',
      ),
      concurrentKept: target(concurrentResult.kept / concurrentTurns, 1, 'higher'),
      ...postgres.targets,
    },
  };
  console.log(JSON.stringify(report));
} finally {
  rmSync(directory, { recursive: true, force: true });
}
