// guardrailInvokeP50Overhead and guardrailStreamP99Overhead of `npm run bench:guardrails`: what
// the built-in guardrails (YEOUL_GUARDRAILS=pii,promptInjection) cost a request, against the
// same server with them off (YEOUL_GUARDRAILS=off). Two `yeoul serve` processes run side by side
// with the same settings but that one variable; autocannon drives 100 connections at one of them
// at a time, in rounds of three loads — off, on, and off again — whose order rotates through all
// six. Off against itself (`offVsOff`) is this run's own noise, the floor under any reading of
// the overhead. Invokes run on the offline model with a Korean message of a few hundred
// characters holding an e-mail address (so `pii` redacts on every turn); streams run against a
// scripted model that streams its answer in small tokens (an e-mail address and a phone number
// among them, so the output guard holds back and redacts on every answer).
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../../src/testing/internal/index.ts';
import { type ReadyProcess, spawnReady, stopProcess } from './ready-process.ts';
import { type Target, target } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How long and how often each side is loaded. */
export interface GuardrailOverheadPlan {
  rounds: number;
  secondsPerLoad: number;
  warmupSeconds: number;
  connections: number;
}

/** The full run's plan, and `--smoke`'s. */
export const guardrailOverheadPlans: Record<'full' | 'smoke', GuardrailOverheadPlan> = {
  full: { rounds: 12, secondsPerLoad: 5, warmupSeconds: 5, connections: 100 },
  smoke: { rounds: 1, secondsPerLoad: 1, warmupSeconds: 1, connections: 100 },
};

/** The invoke message: Korean, a few hundred characters, an e-mail address inside. */
export const guardedMessage =
  '안녕하세요. 지난주 화요일에 주문한 겨울 외투가 아직 도착하지 않아서 문의드립니다. 배송 조회를 해 보니 물류센터에서 출발했다고만 나오고 사흘째 변동이 없습니다. 혹시 배송 중에 문제가 생긴 것인지, 아니면 재고가 부족해서 늦어지는 것인지 확인해 주실 수 있을까요? 답변은 hong.gildong@example.com 으로 보내 주시면 감사하겠습니다. 다음 주 주말에 여행을 떠나야 해서 그 전에 받을 수 있는지도 꼭 알려 주세요. 좋은 하루 보내세요.';

/** The streamed answer: small tokens, an e-mail address and a phone number among them. */
const streamedAnswer =
  '주문하신 상품은 현재 배송 중이며 내일 도착할 예정입니다. 변경 사항이 있으면 support@example.com 또는 010-2345-6789 로 연락드리겠습니다. 이용해 주셔서 감사합니다.';
const streamedChunks = streamedAnswer.match(/.{1,4}/gsu) ?? [streamedAnswer];

type Side = 'off' | 'on' | 'offAgain';
const orders: ReadonlyArray<ReadonlyArray<Side>> = [
  ['off', 'on', 'offAgain'],
  ['on', 'offAgain', 'off'],
  ['offAgain', 'off', 'on'],
  ['offAgain', 'on', 'off'],
  ['on', 'off', 'offAgain'],
  ['off', 'offAgain', 'on'],
];

/** One load: latency percentiles and what failed. */
interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function runLoad(
  url: string,
  path: string,
  body: string,
  plan: GuardrailOverheadPlan,
  seconds: number,
): Promise<Load> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: plan.connections,
    duration: seconds,
    timeout: 30,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return {
    requestsPerSecond: Math.round((result['2xx'] / result.duration) * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The median (the mean of the middle two of an even count), to 0.01. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  const value =
    ((sorted[Math.floor(middle)] as number) + (sorted[Math.ceil(middle)] as number)) / 2;
  return Math.round(value * 100) / 100;
}

/** (measured − baseline) ÷ baseline, to 4 decimals. */
const overheadOf = (baseline: number, measured: number) =>
  Math.round(((measured - baseline) / baseline) * 10_000) / 10_000;

/** Fails unless the guarded server redacts and the other does not (so the comparison is real). */
async function checkSides(servers: Record<'on' | 'off', ReadyProcess>): Promise<void> {
  for (const [side, server] of Object.entries(servers)) {
    const response = await fetch(`${server.url}/api/agent/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: guardedMessage }),
    });
    const payload = (await response.json()) as { status?: string; guardrails?: unknown[] };
    const acted = (payload.guardrails?.length ?? 0) > 0;
    if (response.status !== 200 || payload.status !== 'published' || acted !== (side === 'on')) {
      throw new Error(`the ${side} server answered ${response.status}: ${JSON.stringify(payload)}`);
    }
  }
}

/** Loads both servers in rotating rounds on one route; the medians of each side's p50 and p99. */
async function compare(
  servers: Record<'on' | 'off', ReadyProcess>,
  path: string,
  body: string,
  plan: GuardrailOverheadPlan,
  log: Log,
) {
  const urlOf = (side: Side) => (side === 'on' ? servers.on.url : servers.off.url);
  log(`${path}: warm-up ${plan.warmupSeconds} s on each server`);
  await runLoad(servers.off.url, path, body, plan, plan.warmupSeconds);
  await runLoad(servers.on.url, path, body, plan, plan.warmupSeconds);
  const loads: Record<Side, Load[]> = { off: [], on: [], offAgain: [] };
  for (let round = 0; round < plan.rounds; round += 1) {
    for (const side of orders[round % orders.length] as Side[]) {
      const load = await runLoad(urlOf(side), path, body, plan, plan.secondsPerLoad);
      loads[side].push(load);
      log(
        `${path} round ${round + 1} ${side}: ${load.requestsPerSecond}/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, errors ${load.errors}`,
      );
    }
  }
  const errors = Object.values(loads)
    .flat()
    .reduce((sum, load) => sum + load.errors, 0);
  if (errors > 0) throw new Error(`${errors} requests to ${path} failed or answered non-2xx`);
  const of = (side: Side, field: 'p50Ms' | 'p99Ms' | 'requestsPerSecond') =>
    median(loads[side].map((load) => load[field]));
  return {
    p50Ms: { off: of('off', 'p50Ms'), on: of('on', 'p50Ms'), offAgain: of('offAgain', 'p50Ms') },
    p99Ms: { off: of('off', 'p99Ms'), on: of('on', 'p99Ms'), offAgain: of('offAgain', 'p99Ms') },
    requestsPerSecond: {
      off: of('off', 'requestsPerSecond'),
      on: of('on', 'requestsPerSecond'),
      offAgain: of('offAgain', 'requestsPerSecond'),
    },
    loads,
  };
}

async function startServers(
  env: NodeJS.ProcessEnv,
  extra: Record<string, string>,
): Promise<Record<'on' | 'off', ReadyProcess>> {
  const script = join(import.meta.dirname, 'bench-server-process.ts');
  const start = (guardrails: string) =>
    spawnReady(`yeoul (guardrails ${guardrails})`, ['--max-semi-space-size=8', script, 'yeoul'], {
      env: { ...env, ...extra, YEOUL_GUARDRAILS: guardrails },
    });
  const off = await start('off');
  try {
    return { off, on: await start('pii,promptInjection') };
  } catch (error) {
    await stopProcess(off);
    throw error;
  }
}

/**
 * Measures guardrailInvokeP50Overhead (invoke p50 with the built-ins on ÷ off − 1, offline
 * model) and guardrailStreamP99Overhead (stream p99 likewise, against a scripted model that
 * streams tokens), each from the medians of its loads, with off against itself beside.
 */
export async function measureGuardrailOverhead(options: {
  plan: GuardrailOverheadPlan;
  env: NodeJS.ProcessEnv;
  log: Log;
}): Promise<{
  guardrailInvokeP50Overhead: Target;
  guardrailStreamP99Overhead: Target;
  [detail: string]: unknown;
}> {
  const { plan, log, env } = options;
  const invokeBody = JSON.stringify({ message: guardedMessage });
  let servers = await startServers(env, { YEOUL_MODEL: 'offline' });
  let invoke: Awaited<ReturnType<typeof compare>>;
  try {
    await checkSides(servers);
    invoke = await compare(servers, '/api/agent/invoke', invokeBody, plan, log);
  } finally {
    await Promise.all([stopProcess(servers.on), stopProcess(servers.off)]);
  }
  let model: FakeOpenAiServer | undefined;
  let stream: Awaited<ReturnType<typeof compare>>;
  try {
    model = await startFakeOpenAiServer([
      { kind: 'text', text: streamedAnswer, chunks: streamedChunks },
    ]);
    servers = await startServers(env, {
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
    });
    try {
      stream = await compare(
        servers,
        '/api/agent/stream',
        JSON.stringify({ message: '배송 상태 알려주세요' }),
        plan,
        log,
      );
    } finally {
      await Promise.all([stopProcess(servers.on), stopProcess(servers.off)]);
    }
  } finally {
    await model?.close();
  }
  const invokeOverhead = overheadOf(invoke.p50Ms.off, invoke.p50Ms.on);
  const streamOverhead = overheadOf(stream.p99Ms.off, stream.p99Ms.on);
  return {
    guardrailInvokeP50Overhead: target(invokeOverhead, 0.03, 'lower'),
    guardrailStreamP99Overhead: target(streamOverhead, 0.05, 'lower'),
    invoke: {
      ...invoke,
      offVsOffP50: overheadOf(invoke.p50Ms.off, invoke.p50Ms.offAgain),
      messageChars: [...guardedMessage].length,
    },
    stream: {
      ...stream,
      offVsOffP99: overheadOf(stream.p99Ms.off, stream.p99Ms.offAgain),
      chunks: streamedChunks.length,
    },
    plan,
  };
}
