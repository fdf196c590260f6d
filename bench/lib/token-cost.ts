// What a token costs one request, measured precisely where throughput under load cannot be
// (its rounds move by ±10 % on a shared machine): the RS256 verification in this process, cold
// and remembered, and invokes one at a time on one connection, a key's and a token's taking
// turns request by request, so that drift and other load fall on both alike.
import {
  createIdentityResolver,
  type IdentityVariables,
  identitySettingsOf,
} from '../../src/identity/index.ts';
import { connectionPool, sendJson } from './http-client.ts';
import { microsecondsSince, summarize } from './stats.ts';

/** p50 and p99. */
type Spread = { p50: number; p99: number };

/**
 * One token's verification through the server's own resolver (the same JWK Set, audience and
 * issuer) in this process: each of the `fresh` tokens checked once (the RS256 signature), and
 * the `known` ones again and again (a server remembers a verified token for up to a minute).
 */
export async function measureVerification(
  variables: IdentityVariables,
  fresh: string[],
  known: string[],
): Promise<{ coldUs: Spread; rememberedUs: Spread }> {
  const resolver = createIdentityResolver(identitySettingsOf(variables));
  await resolver.start();
  try {
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
      remembered.push(await time(known[index % known.length] as string));
    // The first of each: the key's import and the code's first runs.
    return { coldUs: summarize(cold.slice(10)), rememberedUs: summarize(remembered.slice(200)) };
  } finally {
    resolver.close();
  }
}

/**
 * Invokes one at a time on one keep-alive connection, `count` with the key and `count` with the
 * tokens (cycled), alternating request by request (which goes first alternating too), after
 * `warmup` of each: p50 and p99 µs of each, and the token's extra µs and % at the p50.
 */
export async function measureInterleavedInvokes(options: {
  url: string;
  key: string;
  tokens: string[];
  body: unknown;
  count: number;
  warmup: number;
}): Promise<{ keyUs: Spread; jwtUs: Spread; extraUsAtP50: number; extraPctAtP50: number }> {
  const agent = connectionPool(1);
  const samples = { key: [] as number[], jwt: [] as number[] };
  const invoke = async (credential: string) => {
    const started = process.hrtime.bigint();
    const answer = await sendJson(`${options.url}/api/agent/invoke`, options.body, {
      agent,
      headers: { authorization: `Bearer ${credential}` },
    });
    if (answer.status !== 200) throw new Error(`invoke answered ${answer.status}`);
    return microsecondsSince(started);
  };
  try {
    for (let index = 0; index < options.warmup + options.count; index += 1) {
      const token = options.tokens[index % options.tokens.length] as string;
      const pair: Array<['key' | 'jwt', string]> = [
        ['key', options.key],
        ['jwt', token],
      ];
      if (index % 2 === 1) pair.reverse();
      for (const [side, credential] of pair) {
        const us = await invoke(credential);
        if (index >= options.warmup) samples[side].push(us);
      }
    }
  } finally {
    agent.destroy();
  }
  const keyUs = summarize(samples.key);
  const jwtUs = summarize(samples.jwt);
  return {
    keyUs,
    jwtUs,
    extraUsAtP50: Math.round((jwtUs.p50 - keyUs.p50) * 10) / 10,
    extraPctAtP50: Math.round(((jwtUs.p50 - keyUs.p50) / keyUs.p50) * 10_000) / 100,
  };
}
