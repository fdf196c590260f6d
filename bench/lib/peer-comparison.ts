// The peer comparison of `npm run bench:server`: Yeoul, Mastra and LangGraph's Agent Server,
// one at a time, each in its own process on a free port, all on the same scripted
// OpenAI-compatible model (bench/lib/calculator-turn.ts) in its own process: the same
// calculator turn on a new thread per request at 100 connections — invoke on a zero-latency
// model, streams on a 300 ms one. The peers live in bench/peers/<name>/ with their own
// package.json and are installed (`npm ci`) on first use; they need no network while they run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../src/testing/internal/index.ts';
import { calculatorTurn } from './calculator-turn.ts';
import { connectionPool } from './http-client.ts';
import { type PeerClient, peerClients } from './peer-clients.ts';
import { processTreeRss } from './process-tree-rss.ts';
import {
  type ReadyProcess,
  spawnReady,
  stopProcess,
  withServeCompileCache,
} from './ready-process.ts';
import { ratio, target } from './stats.ts';
import { runTurns, type TurnLoadSummary } from './turn-load.ts';

type Log = (...parts: unknown[]) => void;
/** Where the peers live, each with its own package.json. */
export const peersDirectory = join(import.meta.dirname, '..', 'peers');
const connections = 100;
// What every answer must contain: the result as the second model call's text writes it.
const expected = '56,088';

/** Which package proves a peer is installed. */
const installMarkers = { mastra: '@mastra/deployer', 'langgraph-api': '@langchain/langgraph-api' };

/** Installs a peer (`npm ci` in its folder) unless it is installed already. */
export function ensureInstalled(peer: keyof typeof installMarkers, log: Log): void {
  const directory = join(peersDirectory, peer);
  if (existsSync(join(directory, 'node_modules', installMarkers[peer]))) return;
  log(`installing the ${peer} peer (npm ci in bench/peers/${peer})`);
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: directory,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Starts one server of the comparison on the model at `modelUrl`, with a fresh data dir. */
export async function startPeer(
  client: PeerClient,
  modelUrl: string,
  env: NodeJS.ProcessEnv,
): Promise<ReadyProcess & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), `yeoul-bench-${client.name}-`));
  if (client.name === 'yeoul') {
    const server = await spawnReady(
      'yeoul',
      [
        '--max-semi-space-size=8', // as `npm start` runs it (and its compile cache below)
        join(import.meta.dirname, 'bench-server-process.ts'),
        'yeoul',
      ],
      {
        env: withServeCompileCache({
          ...env,
          YEOUL_MODEL: 'compat:bench',
          YEOUL_COMPAT_BASE_URL: modelUrl,
        }),
      },
    );
    return { ...server, dataDir };
  }
  const directory = join(peersDirectory, client.name === 'mastra' ? 'mastra' : 'langgraph-api');
  const server = await spawnReady(client.name, [join(directory, 'server.mjs')], {
    cwd: directory,
    env: {
      ...env,
      MODEL_BASE_URL: modelUrl,
      DATA_DIR: dataDir,
      // No telemetry or tracing anywhere; LangGraph's server logs every request at its
      // default level (debug): the others run without request logs, so it does too.
      MASTRA_TELEMETRY_DISABLED: '1',
      LANGSMITH_TRACING: 'false',
      LOG_LEVEL: 'error',
    },
  });
  return { ...server, dataDir };
}

/** One load on one server: warm-up turns, then the measured ones; RSS of its tree after. */
async function measure(
  client: PeerClient,
  modelUrl: string,
  mode: 'invoke' | 'stream',
  counts: { warmUp: number; measured: number; maxSeconds: number },
  env: NodeJS.ProcessEnv,
  log: Log,
): Promise<TurnLoadSummary & { rssBytes: number }> {
  const server = await startPeer(client, modelUrl, env);
  const agent = connectionPool(connections);
  try {
    const turn = () => client[mode](server.url, agent);
    await runTurns({ count: counts.warmUp, connections, turn, expected, maxSeconds: 30 });
    const summary = await runTurns({
      count: counts.measured,
      connections,
      turn,
      expected,
      maxSeconds: counts.maxSeconds,
    });
    const result = { ...summary, rssBytes: processTreeRss(server.pid) };
    log(
      `${client.name} ${mode} @${connections}: ${result.requests} turns, ${result.requestsPerSecond} turns/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms` +
        (result.firstTokenP50Ms === undefined
          ? ''
          : `, first token p50 ${result.firstTokenP50Ms} ms / p99 ${result.firstTokenP99Ms} ms`) +
        `, errors ${result.errors}${result.firstError ? ` (${result.firstError})` : ''}, RSS ${(result.rssBytes / 1e6).toFixed(0)} MB`,
    );
    return result;
  } finally {
    agent.destroy();
    await stopProcess(server);
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

/** The comparison's numbers per server. */
export type PeerResults = Record<
  PeerClient['name'],
  { invoke: TurnLoadSummary & { rssBytes: number }; stream: TurnLoadSummary & { rssBytes: number } }
>;

/**
 * Runs the comparison: `startModel` starts the scripted model (zero latency, then 300 ms).
 * Full: 10 000 invoke turns and 1 000 streamed turns per server; `quick`: 300 and 100. Each
 * load stops at its time limit (warm-ups 30 s, invokes 400 s — enough for the slowest peer,
 * LangGraph's ≈ 27 turns/s, to reach 10 000 on an idle machine, so RSS is compared after the
 * same work — streams 120 s), which keeps the whole of `bench:server` under 25 minutes even
 * with a slow peer; `requests` says how many ran.
 */
export async function comparePeers(options: {
  quick: boolean;
  env: NodeJS.ProcessEnv;
  log: Log;
  startModel(delayMs: number): Promise<ReadyProcess>;
}): Promise<PeerResults> {
  ensureInstalled('mastra', options.log);
  ensureInstalled('langgraph-api', options.log);
  const invokeCounts = options.quick
    ? { warmUp: 50, measured: 300, maxSeconds: 60 }
    : { warmUp: 500, measured: 10_000, maxSeconds: 400 };
  const streamCounts = options.quick
    ? { warmUp: 20, measured: 100, maxSeconds: 60 }
    : { warmUp: 100, measured: 1_000, maxSeconds: 120 };
  const results: Partial<PeerResults> = {};
  const fast = await options.startModel(0);
  try {
    for (const client of peerClients)
      results[client.name] = {
        invoke: await measure(client, fast.url, 'invoke', invokeCounts, options.env, options.log),
      } as PeerResults[PeerClient['name']];
  } finally {
    await stopProcess(fast);
  }
  const slow = await options.startModel(300);
  try {
    for (const client of peerClients)
      (results[client.name] as PeerResults[PeerClient['name']]).stream = await measure(
        client,
        slow.url,
        'stream',
        streamCounts,
        options.env,
        options.log,
      );
  } finally {
    await stopProcess(slow);
  }
  return results as PeerResults;
}

/**
 * `--smoke`: one invoke and one streamed turn through each server's HTTP API on a scripted
 * model in this process, checking the answer, that the turn made exactly two model calls
 * (the second carrying the calculator's result) and that the server stored the thread.
 * Throws on the first failure.
 */
export async function smokePeers(options: { env: NodeJS.ProcessEnv; log: Log }): Promise<void> {
  ensureInstalled('mastra', options.log);
  ensureInstalled('langgraph-api', options.log);
  const model = await startFakeOpenAiServer(calculatorTurn);
  const agent = connectionPool(4);
  try {
    for (const client of peerClients) {
      const server = await startPeer(client, model.baseUrl, options.env);
      try {
        for (const mode of ['invoke', 'stream'] as const) {
          const before = model.requests.length;
          const outcome = await client[mode](server.url, agent);
          const calls = model.requests.slice(before);
          const toolResult = calls[1]?.body.messages.at(-1);
          const stored = await client.thread(server.url, agent, outcome.threadId);
          const problems = [
            outcome.answer.includes(expected) ? '' : `answer ${JSON.stringify(outcome.answer)}`,
            calls.length === 2 ? '' : `${calls.length} model calls, not 2`,
            toolResult?.role === 'tool' && JSON.stringify(toolResult.content).includes('56088')
              ? ''
              : 'the second model call does not carry the tool result 56088',
            mode === 'stream' && outcome.firstTokenMs === undefined ? 'no answer token' : '',
            stored.includes('56088') && stored.includes('56,088')
              ? ''
              : `thread ${outcome.threadId} not stored with the tool result and the answer`,
          ].filter(Boolean);
          if (problems.length > 0)
            throw new Error(`${client.name} ${mode}: ${problems.join('; ')}`);
          options.log(
            `${client.name} ${mode}: ${JSON.stringify(outcome.answer)} on thread ${outcome.threadId}` +
              ` (2 model calls, tool result passed on, thread stored${mode === 'stream' ? `, first token after ${outcome.firstTokenMs?.toFixed(0)} ms` : ''})`,
          );
        }
      } finally {
        await stopProcess(server);
        rmSync(server.dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    agent.destroy();
    await model.close();
  }
}

/** The comparison's targets: Yeoul against the better peer of each measure. */
export function peerTargets(results: PeerResults) {
  const peers = [results.mastra, results.langgraph];
  const bestInvoke = Math.max(...peers.map((peer) => peer.invoke.requestsPerSecond));
  const bestStreamP99 = Math.min(...peers.map((peer) => peer.stream.p99Ms));
  const bestRss = Math.min(...peers.map((peer) => peer.invoke.rssBytes));
  const errors = Object.values(results).reduce(
    (sum, server) => sum + server.invoke.errors + server.stream.errors,
    0,
  );
  return {
    invokeVsBestPeer: target(
      ratio(results.yeoul.invoke.requestsPerSecond, bestInvoke),
      5,
      'higher',
    ),
    streamP99VsBestPeer: target(ratio(results.yeoul.stream.p99Ms, bestStreamP99), 0.8, 'lower'),
    rssVsBestPeer: target(ratio(results.yeoul.invoke.rssBytes, bestRss), 0.4, 'lower'),
    peerComparisonErrors: target(errors, 0, 'lower'),
  };
}
