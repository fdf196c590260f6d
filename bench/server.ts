// `npm run bench:server`: load on Yeoul's HTTP API with autocannon — invoke on the offline
// model, and streams against a fake OpenAI-compatible model that answers after 300 ms
// with streamed tokens — at 10, 100 and 1000 connections, beside a bare Fastify hello
// route measured in the same run as the ceiling — and Yeoul beside the servers people would
// pick instead, Mastra and LangGraph's Agent Server, on one scripted model (`peers`,
// bench/lib/peer-comparison.ts; `--only peers` runs just that, `--smoke` checks one turn
// through each). Each server runs in its own process.
// Progress goes to stderr; the last line on stdout is one JSON object with `targets`.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { onlyPostgres } from './lib/bench-postgres.ts';
import { compareLangGraphProtocol, langGraphProtocolTargets } from './lib/langgraph-protocol.ts';
import { comparePeers, peerTargets, smokePeers } from './lib/peer-comparison.ts';
import { benchPostgresServer } from './lib/postgres-server-load.ts';
import { processTreeRss } from './lib/process-tree-rss.ts';
import { type ReadyProcess, spawnReady, withServeCompileCache } from './lib/ready-process.ts';
import { ratio, target } from './lib/stats.ts';

const quick = process.argv.includes('--quick');
// DATABASE_URL points the PostgreSQL part (bench/lib/postgres-server-load.ts) at a server of
// the user's: only that part's instances get it; every other child runs on SQLite.
const { DATABASE_URL: databaseUrl, ...childEnv } = process.env;
const seconds = quick ? 3 : 8;
const log = (...parts: unknown[]) => console.error('[server]', ...parts);
const children: ChildProcess[] = [];

async function start(
  mode: string,
  env: Record<string, string> = {},
  argument?: string,
): Promise<ReadyProcess> {
  const server = await spawnReady(
    mode,
    [
      '--max-semi-space-size=8',
      join(import.meta.dirname, 'lib', 'bench-server-process.ts'),
      mode,
      ...(argument === undefined ? [] : [argument]),
    ],
    { env: withServeCompileCache({ ...childEnv, ...env }) },
  );
  children.push(server.child);
  return server;
}

async function load(name: string, url: string, connections: number, body?: unknown, pid?: number) {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 30,
    ...(body === undefined
      ? {}
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
  });
  const summary = {
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    p90Ms: result.latency.p90,
    maxMs: result.latency.max,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    ...(pid === undefined ? {} : { rssBytes: processTreeRss(pid) }),
  };
  log(
    `${name} @${connections}: ${summary.requestsPerSecond} req/s, p50 ${summary.p50Ms} ms, p90 ${summary.p90Ms} ms, p99 ${summary.p99Ms} ms, max ${summary.maxMs} ms, errors ${summary.errors}${summary.rssBytes ? `, RSS ${(summary.rssBytes / 1e6).toFixed(0)} MB` : ''}`,
  );
  return summary;
}

const calculation = { message: '123 * 456 계산해줘' };

type LoadSummary = Awaited<ReturnType<typeof load>>;

/**
 * The stream's p99 at 100 connections over the model alone's p99 at 100, and the tail at
 * 1,000 connections over its own median: how much longer a user at the tail waits.
 */
function streamTargets(stream: LoadSummary[], modelAlone: LoadSummary) {
  const at100 = stream.find((run) => run.connections === 100);
  const at1000 = stream.find((run) => run.connections === 1000);
  return {
    streamP99VsModelFloor: target(
      ratio(at100?.p99Ms ?? Number.NaN, modelAlone.p99Ms),
      1.25,
      'lower',
    ),
    stream1000TailRatio: target(
      ratio(at1000?.p99Ms ?? Number.NaN, at1000?.p50Ms ?? Number.NaN),
      2.5,
      'lower',
    ),
  };
}

// `--smoke`: one calculator turn (invoke and stream) through Yeoul and each peer, checked.
if (process.argv.includes('--smoke')) {
  await smokePeers({ env: childEnv, log });
  process.exit(0);
}

const startModel = (delayMs: number) => start('scripted-model', {}, String(delayMs));

// `--only peers`: just Yeoul against Mastra and LangGraph's Agent Server.
if (process.argv.join(' ').includes('--only peers')) {
  try {
    const peers = await comparePeers({ quick, env: childEnv, log, startModel });
    console.log(
      JSON.stringify({ bench: 'server', quick, only: 'peers', peers, targets: peerTargets(peers) }),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
  process.exit(0);
}

// `--only langgraph`: just the LangGraph protocol section (Yeoul and the Agent Server, one SDK).
if (process.argv.join(' ').includes('--only langgraph')) {
  try {
    const langgraphProtocol = await compareLangGraphProtocol({
      quick,
      env: childEnv,
      log,
      startModel,
    });
    console.log(
      JSON.stringify({
        bench: 'server',
        quick,
        only: 'langgraph',
        langgraphProtocol,
        targets: langGraphProtocolTargets(langgraphProtocol),
      }),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
  process.exit(0);
}

// `--only stream`: just the streamed turns on the 300 ms model and that model alone (the floor).
if (process.argv.join(' ').includes('--only stream')) {
  try {
    const fake = await start('fake-model');
    const streamBody = {
      model: 'bench',
      stream: true,
      messages: [{ role: 'user', content: 'hello there, what should I do first today?' }],
    };
    const modelAlone = await load(
      'fake model alone (300 ms)',
      `${fake.url}/chat/completions`,
      100,
      streamBody,
    );
    const slow = await start('yeoul', {
      YEOUL_MODEL: 'compat:bench',
      YEOUL_COMPAT_BASE_URL: fake.url,
    });
    const stream = [];
    for (const connections of [100, 1000])
      stream.push(
        await load(
          'stream (300 ms model)',
          `${slow.url}/api/agent/stream`,
          connections,
          { message: streamBody.messages[0]?.content },
          slow.pid,
        ),
      );
    console.log(
      JSON.stringify({
        bench: 'server',
        quick,
        only: 'stream',
        modelAloneAt100: modelAlone,
        stream,
        targets: streamTargets(stream, modelAlone),
      }),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
  process.exit(0);
}

// `--only postgres`: just the instances on PostgreSQL.
if (onlyPostgres()) {
  try {
    const postgres = await benchPostgresServer({ start, load, log }, calculation, databaseUrl);
    console.log(
      JSON.stringify({
        bench: 'server',
        quick,
        only: 'postgres',
        secondsPerRun: seconds,
        postgres,
      }),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
  process.exit(0);
}

try {
  const hello = await start('hello');
  const helloRun = await load('hello', `${hello.url}/hello`, 100);
  // The floor under invokeVsHello: only the durable writes of the same calculator turn.
  const durable = await start('durable-floor', {}, calculation.message);
  const durableRun = await load(
    "durable writes alone (a calculator turn's)",
    `${durable.url}/turn`,
    100,
    calculation,
    durable.pid,
  );
  const offline = await start('yeoul');
  const invoke = [];
  for (const connections of [10, 100, 1000]) {
    invoke.push(
      await load(
        'invoke (offline model)',
        `${offline.url}/api/agent/invoke`,
        connections,
        calculation,
        offline.pid,
      ),
    );
  }
  const greeting = await load(
    'invoke (offline model, small talk)',
    `${offline.url}/api/agent/invoke`,
    100,
    { message: '안녕하세요' },
    offline.pid,
  );
  const fake = await start('fake-model');
  // The floor under the 300 ms target: the fake model alone, streaming, at 100 connections.
  const modelAlone = await load('fake model alone (300 ms)', `${fake.url}/chat/completions`, 100, {
    model: 'bench',
    stream: true,
    messages: [{ role: 'user', content: 'hello there, what should I do first today?' }],
  });
  const slow = await start('yeoul', {
    YEOUL_MODEL: 'compat:bench',
    YEOUL_COMPAT_BASE_URL: fake.url,
  });
  const stream = [];
  for (const connections of [10, 100, 1000]) {
    stream.push(
      await load(
        'stream (300 ms model)',
        `${slow.url}/api/agent/stream`,
        connections,
        { message: 'hello there, what should I do first today?' },
        slow.pid,
      ),
    );
  }
  const postgres = await benchPostgresServer({ start, load, log }, calculation, databaseUrl);
  // The servers above are done: stopped, so that only the compared ones run.
  for (const child of children.splice(0)) child.kill('SIGTERM');
  const peers = await comparePeers({ quick, env: childEnv, log, startModel });
  const langgraphProtocol = await compareLangGraphProtocol({
    quick,
    env: childEnv,
    log,
    startModel,
  });
  const at1000 = stream.find((run) => run.connections === 1000);
  const invokeAt100 = invoke.find((run) => run.connections === 100);
  console.log(
    JSON.stringify({
      bench: 'server',
      quick,
      secondsPerRun: seconds,
      hello: helloRun,
      durableWritesAt100: durableRun,
      invoke,
      invokeSmallTalkAt100: greeting,
      modelAloneAt100: modelAlone,
      stream,
      // Reported without a target: one and two instances sharing PostgreSQL.
      postgres,
      // Yeoul, Mastra and LangGraph's Agent Server on the same scripted calculator turn.
      peers,
      // The same @langchain/langgraph-sdk Client against Yeoul and LangGraph's Agent Server.
      langgraphProtocol,
      smallTalkVsHello: ratio(greeting.requestsPerSecond, helloRun.requestsPerSecond),
      // What this machine allows at best, measured in this run: each target's value with
      // everything of Yeoul's taken away but the fake model (p99) or the durable writes.
      floors: {
        p99MsAt100: modelAlone.p99Ms,
        invokeVsHello: ratio(durableRun.requestsPerSecond, helloRun.requestsPerSecond),
      },
      invokeVsHello: ratio(invokeAt100?.requestsPerSecond ?? 0, helloRun.requestsPerSecond),
      // Against the better peer of each measure. The ratios to the floors stay as tracked
      // numbers, their goals at the level measured when the peers came in, so a regression
      // shows; they do not block (`blocking: false`).
      targets: {
        ...peerTargets(peers),
        ...langGraphProtocolTargets(langgraphProtocol),
        errorsAt1000: target(at1000?.errors ?? Number.NaN, 0, 'lower'),
        invokeVsDurableFloor: {
          ...target(
            ratio(invokeAt100?.requestsPerSecond ?? 0, durableRun.requestsPerSecond),
            0.24,
            'higher',
          ),
          blocking: false,
        },
        ...streamTargets(stream, modelAlone),
      },
    }),
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
}
