// jwtInvokeOverheadPct of `npm run bench:identity`: what end users' RS256 tokens from a JWK Set
// cost an invoke, against a static key, on one `yeoul serve` process configured with both
// (YEOUL_API_KEYS, and YEOUL_JWT_JWKS at a loopback identity provider with YEOUL_JWT_AUDIENCE
// and YEOUL_JWT_ISSUER): the same server, model (offline) and request; only the credential
// differs. autocannon drives 100 connections in rounds of three loads — the key, the tokens, and
// the key again — in an order that rotates through all six, the median turns/s of each taken:
// the key against itself (`keyVsKeyPct`) is this run's own noise, the floor under any reading
// of the tokens' overhead. The server's CPU per turn (from /proc) is reported beside, and what a
// token costs one request measured more precisely (bench/lib/token-cost.ts: the verification
// alone, and invokes one at a time, a key's and a token's alternating).
import { join } from 'node:path';
import autocannon from 'autocannon';
import { identityVariables, ownerOfKey } from '../../src/identity/index.ts';
import { startFakeIdentityProvider } from '../../src/testing/internal/index.ts';
import { processCpuSeconds } from './process-cpu.ts';
import { type ReadyProcess, spawnReady, stopProcess } from './ready-process.ts';
import { type Target, target } from './stats.ts';
import { measureInterleavedInvokes, measureVerification } from './token-cost.ts';

type Log = (...parts: unknown[]) => void;

/** How long and how often each side is loaded. */
export interface JwtOverheadPlan {
  /** Rounds of three loads (key, tokens, key again). */
  rounds: number;
  secondsPerLoad: number;
  warmupSeconds: number;
  /** Distinct end users, each with its own token. */
  users: number;
  connections: number;
  /** Invokes of each side one at a time, request by request alternating (after 10 % more as warm-up). */
  interleaved: number;
}

/** The full run's plan, and `--smoke`'s. */
export const jwtOverheadPlans: Record<'full' | 'smoke', JwtOverheadPlan> = {
  full: {
    rounds: 12,
    secondsPerLoad: 6,
    warmupSeconds: 5,
    users: 50,
    connections: 100,
    interleaved: 1_500,
  },
  smoke: {
    rounds: 1,
    secondsPerLoad: 1,
    warmupSeconds: 1,
    users: 5,
    connections: 100,
    interleaved: 30,
  },
};

/** One load of one side: turns answered 2xx per second, latency, and everything else. */
interface Round {
  turnsPerSecond: number;
  /** The server's CPU (every thread, user + system) per answered turn. */
  cpuUsPerTurn: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const audience = 'yeoul-bench';
const staticKey = 'bench-static-key-for-the-identity-benchmark';
const calculation = JSON.stringify({ message: '123 * 456 계산해줘' });
const expectedAnswer = '56,088';

/** One load of invokes on `server`, every connection cycling through `credentials`. */
async function runLoad(
  server: ReadyProcess,
  credentials: string[],
  plan: JwtOverheadPlan,
  seconds: number,
): Promise<Round> {
  const cpuBefore = processCpuSeconds(server.pid);
  // Pre-built requests, one per credential, cycled by every connection: both sides alike.
  const result = await autocannon({
    url: `${server.url}/api/agent/invoke`,
    connections: plan.connections,
    duration: seconds,
    timeout: 30,
    requests: credentials.map((credential) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
      body: calculation,
    })),
  });
  const cpuSeconds = processCpuSeconds(server.pid) - cpuBefore;
  return {
    turnsPerSecond: Math.round((result['2xx'] / result.duration) * 10) / 10,
    cpuUsPerTurn: Math.round((cpuSeconds / result['2xx']) * 1e7) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Fails unless `credential` answers the calculator turn and `GET /api/me` names `owner`. */
async function checkCredential(url: string, credential: string, owner: string): Promise<void> {
  const headers = { authorization: `Bearer ${credential}`, 'content-type': 'application/json' };
  const me = await fetch(`${url}/api/me`, { headers });
  const identity = (await me.json()) as { owner?: string };
  if (me.status !== 200 || identity.owner !== owner)
    throw new Error(`GET /api/me answered ${me.status} for ${owner}: ${JSON.stringify(identity)}`);
  const invoke = await fetch(`${url}/api/agent/invoke`, {
    method: 'POST',
    headers,
    body: calculation,
  });
  const answer = await invoke.text();
  if (invoke.status !== 200 || !answer.includes(expectedAnswer))
    throw new Error(`invoke answered ${invoke.status} for ${owner}: ${answer.slice(0, 300)}`);
}

/** How much slower `measured` is than `baseline`, in % of the baseline (2 decimals). */
function slowerPct(baseline: number, measured: number): number {
  return Math.round(((baseline - measured) / baseline) * 10_000) / 100;
}

/** The median (the mean of the middle two of an even count), to 0.1. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  const value =
    ((sorted[Math.floor(middle)] as number) + (sorted[Math.ceil(middle)] as number)) / 2;
  return Math.round(value * 10) / 10;
}

/** The loads of a round, in each of the six orders in turn. */
const orders: ReadonlyArray<ReadonlyArray<Side>> = [
  ['key', 'jwt', 'keyAgain'],
  ['jwt', 'keyAgain', 'key'],
  ['keyAgain', 'key', 'jwt'],
  ['keyAgain', 'jwt', 'key'],
  ['jwt', 'key', 'keyAgain'],
  ['key', 'keyAgain', 'jwt'],
];
type Side = 'key' | 'jwt' | 'keyAgain';
const sideNames: Record<Side, string> = {
  key: 'static key',
  jwt: 'RS256 tokens',
  keyAgain: 'static key again',
};

/**
 * Measures jwtInvokeOverheadPct = (key turns/s − token turns/s) ÷ key turns/s × 100, each the
 * median of its loads, with the same for the key against itself (the noise of this run), plus
 * what one RS256 verification costs in this process and invokes one at a time, interleaved.
 */
export async function measureJwtInvokeOverhead(options: {
  plan: JwtOverheadPlan;
  env: NodeJS.ProcessEnv;
  log: Log;
}): Promise<{ jwtInvokeOverheadPct: Target; [detail: string]: unknown }> {
  const { plan, log } = options;
  const provider = await startFakeIdentityProvider();
  let server: ReadyProcess | undefined;
  try {
    const users = Array.from({ length: plan.users }, (_, index) => `user-${index + 1}`);
    const tokens = await Promise.all(users.map((sub) => provider.sign({ sub, aud: audience })));
    const jwtEnv = {
      YEOUL_JWT_JWKS: provider.jwksUrl,
      YEOUL_JWT_AUDIENCE: audience,
      YEOUL_JWT_ISSUER: provider.issuer,
    };
    const fresh = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        provider.sign({ sub: `fresh-${index + 1}`, aud: audience }),
      ),
    );
    const verification = await measureVerification(identityVariables.parse(jwtEnv), fresh, tokens);
    log(
      `one RS256 token verified in this process: cold p50 ${verification.coldUs.p50} µs, remembered p50 ${verification.rememberedUs.p50} µs`,
    );
    server = await spawnReady(
      'yeoul',
      ['--max-semi-space-size=8', join(import.meta.dirname, 'bench-server-process.ts'), 'yeoul'],
      {
        env: { ...options.env, ...jwtEnv, YEOUL_API_KEYS: staticKey, YEOUL_MODEL: 'offline' },
      },
    );
    await checkCredential(server.url, staticKey, ownerOfKey(staticKey));
    for (const [index, token] of tokens.entries())
      await checkCredential(server.url, token, `jwt:${users[index]}`);
    // Requests cycle through as many credentials on every side: the key's repeat one.
    const keys = tokens.map(() => staticKey);
    const credentials: Record<Side, string[]> = { key: keys, jwt: tokens, keyAgain: keys };
    log(`warm-up: ${plan.warmupSeconds} s with the key, then with the tokens`);
    await runLoad(server, keys, plan, plan.warmupSeconds);
    await runLoad(server, tokens, plan, plan.warmupSeconds);
    const loads: Record<Side, Round[]> = { key: [], jwt: [], keyAgain: [] };
    for (let round = 0; round < plan.rounds; round += 1) {
      for (const side of orders[round % orders.length] as Side[]) {
        const measured = await runLoad(server, credentials[side], plan, plan.secondsPerLoad);
        loads[side].push(measured);
        log(
          `round ${round + 1} ${sideNames[side]}: ${measured.turnsPerSecond} turns/s, ${measured.cpuUsPerTurn} µs of server CPU a turn, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
        );
      }
    }
    const interleaved = await measureInterleavedInvokes({
      url: server.url,
      key: staticKey,
      tokens,
      body: JSON.parse(calculation),
      count: plan.interleaved,
      warmup: Math.ceil(plan.interleaved / 10),
    });
    log(
      `one invoke at a time, key and token alternating (${plan.interleaved} each): key p50 ${interleaved.keyUs.p50} µs, token p50 ${interleaved.jwtUs.p50} µs: ${interleaved.extraUsAtP50} µs (${interleaved.extraPctAtP50} %) more with a token`,
    );
    const errors = Object.values(loads)
      .flat()
      .reduce((sum, load) => sum + load.errors, 0);
    if (errors > 0) throw new Error(`${errors} invokes failed or answered non-2xx`);
    const turns = (side: Side) => median(loads[side].map((load) => load.turnsPerSecond));
    const cpu = (side: Side) => median(loads[side].map((load) => load.cpuUsPerTurn));
    const keyTurnsPerSec = turns('key');
    const jwtTurnsPerSec = turns('jwt');
    const overhead = slowerPct(keyTurnsPerSec, jwtTurnsPerSec);
    const keyVsKeyPct = slowerPct(keyTurnsPerSec, turns('keyAgain'));
    // Extra server CPU a token's turn takes, in % of a key's.
    const cpuPerTurnOverheadPct = -slowerPct(cpu('key'), cpu('jwt'));
    log(
      `invoke at ${plan.connections} connections, medians of ${plan.rounds} loads each: static key ${keyTurnsPerSec} turns/s, RS256 tokens ${jwtTurnsPerSec} turns/s, the key again ${turns('keyAgain')} turns/s: tokens ${overhead} % slower (the key against itself ${keyVsKeyPct} %); server CPU a turn ${cpu('key')}, ${cpu('jwt')} and ${cpu('keyAgain')} µs`,
    );
    return {
      jwtInvokeOverheadPct: target(overhead, 5, 'lower'),
      keyTurnsPerSec,
      jwtTurnsPerSec,
      keyAgainTurnsPerSec: turns('keyAgain'),
      keyVsKeyPct,
      cpuUsPerTurn: { key: cpu('key'), jwt: cpu('jwt'), keyAgain: cpu('keyAgain') },
      cpuPerTurnOverheadPct,
      interleaved,
      verificationUs: verification,
      loads,
      plan,
    };
  } finally {
    if (server) await stopProcess(server);
    await provider.close();
  }
}
