// jwtInvokeOverheadPct of `npm run bench:identity`: what end users' RS256 tokens from a JWK Set
// cost an invoke, against a static key, on one `yeoul serve` process configured with both
// (YEOUL_API_KEYS, and YEOUL_JWT_JWKS at a loopback identity provider with YEOUL_JWT_AUDIENCE
// and YEOUL_JWT_ISSUER): the same server, model (offline) and request; only the credential
// differs. autocannon drives 100 connections in alternating rounds (key, token, token, key, …),
// the median turns/s of each side taken, so that drift and other load on the machine hit both;
// the server's CPU per turn (from /proc) is reported beside, and what a token costs one request
// measured more precisely (bench/lib/token-cost.ts: the verification alone, and invokes one at a
// time, a key's and a token's alternating).
import { join } from 'node:path';
import autocannon from 'autocannon';
import { identityVariables, ownerOfKey } from '../../src/identity/index.ts';
import { startFakeIdentityProvider } from '../../src/testing/internal/index.ts';
import { processCpuSeconds } from './process-cpu.ts';
import { type ReadyProcess, spawnReady, stopProcess } from './ready-process.ts';
import { percentile, type Target, target } from './stats.ts';
import { measureInterleavedInvokes, measureVerification } from './token-cost.ts';

type Log = (...parts: unknown[]) => void;

/** How long and how often each side is loaded. */
export interface JwtOverheadPlan {
  rounds: number;
  secondsPerRound: number;
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
    secondsPerRound: 3,
    warmupSeconds: 5,
    users: 50,
    connections: 100,
    interleaved: 1_500,
  },
  smoke: {
    rounds: 1,
    secondsPerRound: 2,
    warmupSeconds: 1,
    users: 5,
    connections: 100,
    interleaved: 30,
  },
};

/** One round of one side: turns answered 2xx per second, latency, and everything else. */
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

/** One round of invokes on `server`, every connection cycling through `credentials`. */
async function loadRound(
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

/** How much slower the tokens' side is than the key's, in % of the key's (2 decimals). */
function overheadPct(keyTurnsPerSec: number, jwtTurnsPerSec: number): number {
  return Math.round(((keyTurnsPerSec - jwtTurnsPerSec) / keyTurnsPerSec) * 10_000) / 100;
}

/** The middle value (the upper one of an even count). */
function median(values: number[]): number {
  return percentile(values, 0.5);
}

/**
 * Measures jwtInvokeOverheadPct = (key turns/s − token turns/s) ÷ key turns/s × 100, each the
 * median of its rounds, plus (for the reading) what one RS256 verification costs in this
 * process, cold and remembered, and the invokes of each side one at a time, interleaved.
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
    const keys = tokens.map(() => staticKey);
    const sides = { key: keys, jwt: tokens } as const;
    log(`warm-up: ${plan.warmupSeconds} s with the key, then with the tokens`);
    for (const credentials of Object.values(sides))
      await loadRound(server, credentials, plan, plan.warmupSeconds);
    const rounds: Record<keyof typeof sides, Round[]> = { key: [], jwt: [] };
    for (let round = 0; round < plan.rounds; round += 1) {
      // key, jwt, jwt, key, key, jwt, …: each side goes first as often as the other.
      const order: Array<keyof typeof sides> = round % 2 === 0 ? ['key', 'jwt'] : ['jwt', 'key'];
      for (const side of order) {
        const measured = await loadRound(server, sides[side], plan, plan.secondsPerRound);
        rounds[side].push(measured);
        log(
          `round ${round + 1} ${side === 'key' ? 'static key' : `RS256 tokens (${plan.users} users)`}: ${measured.turnsPerSecond} turns/s, ${measured.cpuUsPerTurn} µs of server CPU a turn, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
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
    const errors = [...rounds.key, ...rounds.jwt].reduce((sum, round) => sum + round.errors, 0);
    if (errors > 0) throw new Error(`${errors} invokes failed or answered non-2xx`);
    const keyTurnsPerSec = median(rounds.key.map((round) => round.turnsPerSecond));
    const jwtTurnsPerSec = median(rounds.jwt.map((round) => round.turnsPerSecond));
    const overhead = overheadPct(keyTurnsPerSec, jwtTurnsPerSec);
    const roundOverheadPct = rounds.key.map((key, index) =>
      overheadPct(key.turnsPerSecond, (rounds.jwt[index] as Round).turnsPerSecond),
    );
    const best = (side: Round[]) => Math.max(...side.map((round) => round.turnsPerSecond));
    const keyCpuUsPerTurn = median(rounds.key.map((round) => round.cpuUsPerTurn));
    const jwtCpuUsPerTurn = median(rounds.jwt.map((round) => round.cpuUsPerTurn));
    // Extra server CPU a token's turn takes, in % of a key's: steadier than turns/s under
    // other load, and the share of throughput tokens would cost a server short of CPU.
    const cpuPerTurnOverheadPct =
      Math.round(((jwtCpuUsPerTurn - keyCpuUsPerTurn) / keyCpuUsPerTurn) * 10_000) / 100;
    log(
      `invoke at ${plan.connections} connections, medians of ${plan.rounds} rounds: static key ${keyTurnsPerSec} turns/s (${keyCpuUsPerTurn} µs CPU a turn), RS256 tokens ${jwtTurnsPerSec} turns/s (${jwtCpuUsPerTurn} µs): overhead ${overhead} % of throughput, ${cpuPerTurnOverheadPct} % of CPU a turn`,
    );
    return {
      jwtInvokeOverheadPct: target(overhead, 5, 'lower'),
      keyTurnsPerSec,
      jwtTurnsPerSec,
      // The best round of each side, and what the best rounds give (one-sided noise: other
      // work on the machine only ever slows a round down).
      bestKeyTurnsPerSec: best(rounds.key),
      bestJwtTurnsPerSec: best(rounds.jwt),
      bestOverheadPct: overheadPct(best(rounds.key), best(rounds.jwt)),
      keyCpuUsPerTurn,
      jwtCpuUsPerTurn,
      cpuPerTurnOverheadPct,
      // Each round's overhead (its key and token loads run back to back), in the order run:
      // the spread the medians smooth, and their median (less moved by slow drift).
      roundOverheadPct,
      medianRoundOverheadPct: median(roundOverheadPct),
      rounds,
      interleaved,
      verificationUs: verification,
      plan,
    };
  } finally {
    if (server) await stopProcess(server);
    await provider.close();
  }
}
