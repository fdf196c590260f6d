import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeIdentityProvider, waitUntil } from '../testing/internal/index.ts';
import { RemoteJwks } from './remote-jwks.ts';
import { TokenVerifier } from './token-verifier.ts';

const rules = {
  audience: ['yeoul'],
  ownerClaim: 'sub',
  scopesClaim: 'scope',
  defaultScopes: ['yeoul:read' as const],
  clockSkewSeconds: 30,
};

describe('a JWK Set at a URL', () => {
  let idp: Awaited<ReturnType<typeof startFakeIdentityProvider>>;
  before(async () => {
    idp = await startFakeIdentityProvider();
  });
  after(() => idp.close());

  it('is fetched at start and on a schedule; a failed fetch keeps the last good set', async () => {
    const failures: string[] = [];
    const jwks = new RemoteJwks(new URL(idp.jwksUrl), {
      timings: { refreshMs: 50 },
      onFailure: (problem) => failures.push(problem),
    });
    await jwks.start();
    assert.equal(idp.fetches, 1);
    assert.deepEqual(kidsOf(jwks), ['rsa-1', 'ec-1']);
    idp.failWith(503);
    await waitUntil(() => failures.length >= 2, 'two failed fetches');
    assert.deepEqual(kidsOf(jwks), ['rsa-1', 'ec-1'], 'the last good set stays');
    assert.match(failures[0] ?? '', /answered 503\); the last good set stays/);
    const verifier = new TokenVerifier({ ...rules, keySet: jwks });
    assert.ok((await verifier.verify(await idp.sign({ sub: 'alice', aud: 'yeoul' }))).ok);
    idp.failWith(undefined);
    idp.rotate();
    await waitUntil(() => kidsOf(jwks)[0] === 'rsa-2', 'the rotated set');
    jwks.close();
    const fetched = idp.fetches;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(idp.fetches, fetched, 'closed: no more fetches');
  });

  it('fetches again for an unknown kid, at most once per cool-down', async () => {
    const jwks = new RemoteJwks(new URL(idp.jwksUrl), { timings: { unknownKeyCooldownMs: 1000 } });
    await jwks.start();
    const verifier = new TokenVerifier({ ...rules, keySet: jwks });
    const old = await idp.sign({ sub: 'alice', aud: 'yeoul' });
    assert.ok((await verifier.verify(old)).ok);
    // Within the cool-down of the start's fetch, a rotated key is not fetched for.
    idp.rotate();
    const rotated = await idp.sign({ sub: 'alice', aud: 'yeoul' });
    const start = idp.fetches;
    const refused = await verifier.verify(rotated);
    assert.equal(refused.ok, false);
    assert.equal(idp.fetches, start);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    // Past it, one fetch finds the new key; ten unknown kids at once share one more fetch.
    assert.ok((await verifier.verify(rotated)).ok);
    assert.equal(idp.fetches, start + 1);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    const strangers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        idp.sign({ sub: 'mallory', aud: 'yeoul' }, { kid: `unknown-${index}` }),
      ),
    );
    const outcomes = await Promise.all(strangers.map((token) => verifier.verify(token)));
    assert.ok(outcomes.every((outcome) => !outcome.ok));
    assert.equal(idp.fetches, start + 2);
    for (const token of strangers) await verifier.verify(token);
    assert.equal(idp.fetches, start + 2, 'within the cool-down again');
    jwks.close();
  });
});

function kidsOf(jwks: RemoteJwks): Array<string | undefined> {
  return jwks.keys().map((key) => key.kid);
}
