// runsCreateP99Ms of `npm run bench:runs`: the latency of `POST /api/runs` at 100 connections
// (autocannon, each request a new session) while the runs it made execute on a fake model that
// answers after a delay — the runs go on in the same server process, so the answers compete
// with them for its CPU. A warm-up load runs first and its runs end before the measured load;
// after it the bench waits for every run to end and checks that none failed.
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { processCpuSeconds } from './process-cpu.ts';
import { stopProcess } from './ready-process.ts';
import { callJson, startDelayedModel, startYeoul, waitForRunsToEnd } from './runs-bench-servers.ts';
import { percentile, summarize, type Target, target } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How long and how hard the create load runs. */
export interface RunsCreatePlan {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  modelDelayMs: number;
  /** The paced load's offered rate (requests per second over all connections). */
  pacedRate: number;
}

/** The full run's plan, and `--smoke`'s. */
export const runsCreatePlans: Record<'full' | 'smoke', RunsCreatePlan> = {
  full: { connections: 100, warmupSeconds: 3, seconds: 10, modelDelayMs: 300, pacedRate: 100 },
  smoke: { connections: 100, warmupSeconds: 0.5, seconds: 1, modelDelayMs: 300, pacedRate: 100 },
};

async function load(url: string, plan: RunsCreatePlan, seconds: number) {
  const result = await autocannon({
    url: `${url}/api/runs`,
    connections: plan.connections,
    duration: seconds,
    timeout: 30,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: '오늘 회의 내용을 세 줄로 정리해 줘' }),
  });
  return {
    requests: result['2xx'],
    requestsPerSecond: Math.round((result['2xx'] / result.duration) * 10) / 10,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * An open load: one request every 1/rate s on a pool of `connections` keep-alive connections,
 * whatever the answers do; each latency counts from when its request was due (so a stalled
 * server is not hidden by requests that were never sent).
 */
async function pacedLoad(url: string, plan: RunsCreatePlan, seconds: number) {
  const pool = new Pool(url, { connections: plan.connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const body = JSON.stringify({ message: '오늘 회의 내용을 세 줄로 정리해 줘' });
  const send = async (dueAt: number) => {
    try {
      const answer = await pool.request({
        path: '/api/runs',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await answer.body.text();
      if (answer.statusCode !== 202) errors += 1;
    } catch {
      errors += 1;
    }
    latencies.push(performance.now() - dueAt);
  };
  const count = Math.round(seconds * plan.pacedRate);
  const started = performance.now();
  const sent: Array<Promise<void>> = [];
  while (sent.length < count) {
    const now = performance.now();
    while (sent.length < count && started + (sent.length * 1000) / plan.pacedRate <= now) {
      sent.push(send(started + (sent.length * 1000) / plan.pacedRate));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(sent);
  await pool.close();
  const { p50, p99 } = summarize(latencies);
  return {
    requests: count,
    requestsPerSecond: plan.pacedRate,
    p50Ms: p50,
    p90Ms: percentile(latencies, 0.9),
    p99Ms: p99,
    maxMs: Math.round(Math.max(...latencies) * 10) / 10,
    errors,
  };
}

/** One load's figures. */
interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const summary = (figures: LoadFigures) =>
  `${figures.requestsPerSecond}/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, errors ${figures.errors}`;

/** How many runs have ended `done` so far (the server's run counter). */
async function runsDone(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let done = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('yeoul_runs_total{') && line.includes('status="published"')) {
      done += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return done;
}

/** Throws when a request failed or a run ended otherwise than done. */
async function refuseFailures(url: string, requestErrors: number): Promise<void> {
  const failed = (await callJson(`${url}/api/runs?status=failed,cancelled&limit=200`)).body.runs
    .length;
  if (requestErrors > 0 || failed > 0) {
    throw new Error(`${requestErrors} requests failed and ${failed} runs did not end done`);
  }
}

/** Measures runsCreateP99Ms (goal ≤ 20 ms) with the load's other figures beside it. */
export async function measureRunsCreate(options: {
  plan: RunsCreatePlan;
  env: NodeJS.ProcessEnv;
  log: Log;
  nodeArgs?: string[];
}): Promise<{ runsCreateP99Ms: Target; [detail: string]: unknown }> {
  const { plan, env, log } = options;
  const model = await startDelayedModel(env, plan.modelDelayMs);
  const serverOptions = {
    modelUrl: `${model.url}`,
    ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
  };
  try {
    // The closed load makes runs far faster than they can go (100 connections, each sending
    // again at its 202): they wait `queued` for one of the YEOUL_BACKGROUND_RUNS places while
    // the first ones run. The measure is how fast a run is made meanwhile; the backlog left at
    // the end is not waited for (its own server is stopped), only checked for failures.
    let closed: Awaited<ReturnType<typeof load>>;
    let cpuMsPerRequest: number;
    let doneDuringLoad: number;
    const closedServer = await startYeoul(env, serverOptions);
    try {
      log(`POST /api/runs: warm-up ${plan.warmupSeconds} s at ${plan.pacedRate}/s`);
      await pacedLoad(closedServer.url, plan, plan.warmupSeconds);
      await waitForRunsToEnd(closedServer.url, 300_000);
      log(`POST /api/runs: ${plan.seconds} s at ${plan.connections} connections`);
      const cpuBefore = processCpuSeconds(closedServer.pid);
      const doneBefore = await runsDone(closedServer.url);
      closed = await load(closedServer.url, plan, plan.seconds);
      // The server's CPU per request over the load: the answers and the runs going meanwhile.
      cpuMsPerRequest =
        ((processCpuSeconds(closedServer.pid) - cpuBefore) * 1000) / closed.requests;
      doneDuringLoad = (await runsDone(closedServer.url)) - doneBefore;
      log(`  ${summary(closed)}; ${doneDuringLoad} runs ended done meanwhile`);
      await refuseFailures(closedServer.url, closed.errors);
    } finally {
      await stopProcess(closedServer);
    }
    // An open load the runs keep up with, on a server of its own.
    const pacedServer = await startYeoul(env, serverOptions);
    let paced: Awaited<ReturnType<typeof pacedLoad>>;
    try {
      log(
        `POST /api/runs: ${plan.seconds} s at ${plan.pacedRate}/s over ${plan.connections} connections`,
      );
      paced = await pacedLoad(pacedServer.url, plan, plan.seconds);
      log(`  ${summary(paced)}; waiting for the runs to end`);
      await waitForRunsToEnd(pacedServer.url, 600_000);
      await refuseFailures(pacedServer.url, paced.errors);
    } finally {
      await stopProcess(pacedServer);
    }
    return {
      runsCreateP99Ms: target(closed.p99Ms, 20, 'lower'),
      load: closed,
      runsDoneDuringLoad: doneDuringLoad,
      serverCpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000,
      // Little's law: 100 connections each waiting for its answer cannot see a mean under this.
      meanFloorMs: Math.round((plan.connections / closed.requestsPerSecond) * 1000 * 10) / 10,
      paced,
      plan,
    };
  } finally {
    await stopProcess(model);
  }
}
