// jwtInvokeOverheadPct of `npm run bench:identity`: what end users' RS256 tokens from a JWK Set
// cost an invoke, against a static key, on one `yeoul serve` process configured with both
// (YEOUL_API_KEYS, and YEOUL_JWT_JWKS at a loopback identity provider with YEOUL_JWT_AUDIENCE
// and YEOUL_JWT_ISSUER): the same server, model (offline) and request; only the credential
// differs. autocannon drives 100 connections in alternating rounds (key, token, token, key, …),
// the median turns/s of each side taken, so that drift and other load on the machine hit both.
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  createIdentityResolver,
  identitySettingsOf,
  identityVariables,
  ownerOfKey,
} from '../../src/identity/index.ts';
import { startFakeIdentityProvider } from '../../src/testing/internal/index.ts';
import { type ReadyProcess, spawnReady, stopProcess } from './ready-process.ts';
import { microsecondsSince, percentile, summarize, type Target, target } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How long and how often each side is loaded. */
export interface JwtOverheadPlan {
  rounds: number;
  secondsPerRound: number;
  warmupSeconds: number;
  /** Distinct end users, each with its own token. */
  users: number;
  connections: number;
}

/** The full run's plan, and `--smoke`'s. */
export const jwtOverheadPlans: Record<'full' | 'smoke', JwtOverheadPlan> = {
  full: { rounds: 5, secondsPerRound: 8, warmupSeconds: 5, users: 50, connections: 100 },
  smoke: { rounds: 1, secondsPerRound: 2, warmupSeconds: 1, users: 5, connections: 100 },
};

/** One round of one side: turns answered 2xx per second, latency, and everything else. */
interface Round {
  turnsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const audience = 'yeoul-bench';
const staticKey = 'bench-static-key-for-the-identity-benchmark';
const calculation = JSON.stringify({ message: '123 * 456 계산해줘' });
const expectedAnswer = '56,088';

async function loadRound(
  url: string,
  credentials: string[],
  plan: JwtOverheadPlan,
  seconds: number,
) {
  // Pre-built requests, one per credential, cycled by every connection: both sides alike.
  const result = await autocannon({
    url: `${url}/api/agent/invoke`,
    connections: plan.connections,
    duration: seconds,
    timeout: 30,
    requests: credentials.map((credential) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
      body: calculation,
    })),
  });
  return {
    turnsPerSecond: Math.round((result['2xx'] / result.duration) * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  } satisfies Round;
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
 * process, cold and remembered.
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
    const verification = await measureVerification(provider, jwtEnv, tokens);
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
      await loadRound(server.url, credentials, plan, plan.warmupSeconds);
    const rounds: Record<keyof typeof sides, Round[]> = { key: [], jwt: [] };
    for (let round = 0; round < plan.rounds; round += 1) {
      // key, jwt, jwt, key, key, jwt, …: each side goes first as often as the other.
      const order: Array<keyof typeof sides> = round % 2 === 0 ? ['key', 'jwt'] : ['jwt', 'key'];
      for (const side of order) {
        const measured = await loadRound(server.url, sides[side], plan, plan.secondsPerRound);
        rounds[side].push(measured);
        log(
          `round ${round + 1} ${side === 'key' ? 'static key' : `RS256 tokens (${plan.users} users)`}: ${measured.turnsPerSecond} turns/s, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
        );
      }
    }
    const errors = [...rounds.key, ...rounds.jwt].reduce((sum, round) => sum + round.errors, 0);
    if (errors > 0) throw new Error(`${errors} invokes failed or answered non-2xx`);
    const keyTurnsPerSec = median(rounds.key.map((round) => round.turnsPerSecond));
    const jwtTurnsPerSec = median(rounds.jwt.map((round) => round.turnsPerSecond));
    const overhead = overheadPct(keyTurnsPerSec, jwtTurnsPerSec);
    log(
      `invoke at ${plan.connections} connections: static key ${keyTurnsPerSec} turns/s, RS256 tokens ${jwtTurnsPerSec} turns/s (medians of ${plan.rounds}): overhead ${overhead} %`,
    );
    return {
      jwtInvokeOverheadPct: target(overhead, 5, 'lower'),
      keyTurnsPerSec,
      jwtTurnsPerSec,
      // Each round's key ÷ token overhead, in the order run: the spread the medians smooth.
      roundOverheadPct: rounds.key.map((key, index) =>
        overheadPct(key.turnsPerSecond, (rounds.jwt[index] as Round).turnsPerSecond),
      ),
      rounds,
      verificationUs: verification,
      plan,
    };
  } finally {
    if (server) await stopProcess(server);
    await provider.close();
  }
}

/**
 * One token's verification through the server's own resolver (the same JWK Set, audience and
 * issuer), in this process: each of `fresh` new tokens checked once (the RS256 signature), and
 * one token checked again and again (a server remembers a verified token for up to a minute).
 */
async function measureVerification(
  provider: Awaited<ReturnType<typeof startFakeIdentityProvider>>,
  jwtEnv: Record<string, string>,
  tokens: string[],
): Promise<{ coldUs: { p50: number; p99: number }; rememberedUs: { p50: number; p99: number } }> {
  const resolver = createIdentityResolver(identitySettingsOf(identityVariables.parse(jwtEnv)));
  await resolver.start();
  try {
    const fresh = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        provider.sign({ sub: `cold-${index}`, aud: audience }),
      ),
    );
    const time = async (token: string) => {
      const started = process.hrtime.bigint();
      const outcome = await resolver.verifyToken(token);
      if (!outcome.ok) throw new Error(`a bench token was refused: ${outcome.refusal.message}`);
      return microsecondsSince(started);
    };
    const cold: number[] = [];
    for (const token of fresh) cold.push(await time(token));
    const remembered: number[] = [];
    for (let index = 0; index < 2_000; index += 1)
      remembered.push(await time(tokens[index % tokens.length] as string));
    return { coldUs: summarize(cold.slice(20)), rememberedUs: summarize(remembered.slice(200)) };
  } finally {
    resolver.close();
  }
}
