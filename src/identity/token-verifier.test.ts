import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { type TokenRules, TokenVerifier } from './token-verifier.ts';

const secret = 'a-secret-of-at-least-thirty-two-bytes!';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const now = () => Math.floor(Date.now() / 1000);

const base: TokenRules = {
  ownerClaim: 'sub',
  scopesClaim: 'scope',
  defaultScopes: ['yeoul:read', 'yeoul:write'],
  clockSkewSeconds: 30,
};

/** A token signed with `key` (HS256 with a string), expiring in an hour unless `claims` say otherwise. */
async function token(
  key: string | KeyObject,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  const alg =
    typeof key === 'string' ? 'HS256' : key.asymmetricKeyType === 'rsa' ? 'RS256' : 'ES256';
  const signing = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  return new SignJWT({ sub: 'alice', exp: now() + 3600, ...claims })
    .setProtectedHeader({ alg, ...header })
    .sign(signing);
}

function part(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function refusalOf(verifier: TokenVerifier, jwt: string): Promise<string> {
  const outcome = await verifier.verify(jwt);
  assert.equal(outcome.ok, false, 'the token was accepted');
  if (outcome.ok) return '';
  assert.equal(outcome.refusal.code, 'invalid_token');
  return outcome.refusal.message;
}

describe('TokenVerifier', () => {
  it('accepts HS256, RS256 and ES256 tokens, the owner jwt:<sub> whichever key signed', async () => {
    const verifier = new TokenVerifier({
      ...base,
      secret,
      keySet: {
        keys: () => [
          { kid: 'r', algorithm: 'RS256', key: rsa.publicKey },
          { kid: 'e', algorithm: 'ES256', key: ec.publicKey },
        ],
      },
    });
    for (const jwt of [
      await token(secret),
      await token(rsa.privateKey, {}, { kid: 'r' }),
      await token(ec.privateKey, {}, { kid: 'e' }),
    ]) {
      const outcome = await verifier.verify(jwt);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.identity.owner, 'jwt:alice');
      assert.equal(outcome.identity.via, 'jwt');
      assert.deepEqual([...outcome.identity.scopes].sort(), ['yeoul:read', 'yeoul:write']);
      assert.ok(outcome.identity.expiresAt instanceof Date);
    }
  });

  it('keeps only the yeoul:* scopes of the claim, a string or an array, and the configured claims', async () => {
    const verifier = new TokenVerifier({
      ...base,
      secret,
      ownerClaim: 'email',
      scopesClaim: 'scp',
    });
    const spaced = await verifier.verify(
      await token(secret, { email: 'a@example.com', scp: 'openid yeoul:read profile yeoul:nope' }),
    );
    assert.ok(spaced.ok);
    assert.equal(spaced.identity.owner, 'jwt:a@example.com');
    assert.deepEqual([...spaced.identity.scopes], ['yeoul:read']);
    const listed = await verifier.verify(await token(secret, { email: 'b', scp: ['yeoul:admin'] }));
    assert.ok(listed.ok);
    assert.equal(listed.identity.admin, true);
    assert.equal(listed.identity.scopes.size, 4);
    const none = await verifier.verify(await token(secret, { email: 'c', scp: [] }));
    assert.ok(none.ok);
    assert.equal(none.identity.scopes.size, 0);
  });

  it('refuses each bad token saying why', async () => {
    const verifier = new TokenVerifier({
      ...base,
      secret,
      issuer: 'https://issuer.example',
      audience: ['yeoul', 'other'],
      publicKey: { key: rsa.publicKey, algorithm: 'RS256' },
    });
    const good = { iss: 'https://issuer.example', aud: ['x', 'yeoul'] };
    assert.ok((await verifier.verify(await token(secret, good))).ok);
    const cases: Array<[string, Promise<string>, RegExp]> = [
      ['expired', token(secret, { ...good, exp: now() - 31 }), /expired/],
      ['not yet valid', token(secret, { ...good, nbf: now() + 120 }), /not yet valid/],
      ['wrong issuer', token(secret, { ...good, iss: 'https://evil.example' }), /wrong issuer/],
      ['wrong audience', token(secret, { ...good, aud: 'elsewhere' }), /wrong audience/],
      ['no exp', token(secret, { ...good, exp: undefined }), /no expiry/],
      ['no owner claim', token(secret, { ...good, sub: undefined }), /no owner claim/],
      ['long owner', token(secret, { ...good, sub: 'x'.repeat(257) }), /no owner claim/],
      ['another secret', token('another-secret-of-thirty-two-bytes!!!', good), /bad signature/],
      ['ES256 unconfigured', token(ec.privateKey, good), /unsupported algorithm/],
      ['garbage', Promise.resolve('not.a.jwt'), /malformed/],
    ];
    for (const [name, jwt, reason] of cases) {
      assert.match(await refusalOf(verifier, await jwt), reason, name);
    }
  });

  it('accepts a token within the clock skew of its exp and nbf', async () => {
    const verifier = new TokenVerifier({ ...base, secret });
    assert.ok((await verifier.verify(await token(secret, { exp: now() - 20 }))).ok);
    assert.ok((await verifier.verify(await token(secret, { nbf: now() + 20 }))).ok);
    const strict = new TokenVerifier({ ...base, secret, clockSkewSeconds: 0 });
    assert.match(await refusalOf(strict, await token(secret, { exp: now() - 5 })), /expired/);
  });

  it('refuses alg none, an altered payload and an HS256 token signed with the public key', async () => {
    const verifier = new TokenVerifier({
      ...base,
      publicKey: { key: rsa.publicKey, algorithm: 'RS256' },
      audience: ['yeoul'],
    });
    const claims = { sub: 'alice', aud: 'yeoul', exp: now() + 3600 };
    const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
    assert.match(await refusalOf(verifier, unsigned), /unsupported algorithm/);

    const signed = await token(rsa.privateKey, { aud: 'yeoul' });
    assert.ok((await verifier.verify(signed)).ok);
    const [header, , signature] = signed.split('.');
    const altered = `${header}.${part({ ...claims, sub: 'admin' })}.${signature}`;
    assert.match(await refusalOf(verifier, altered), /bad signature/);

    // The classic confusion: the public key's PEM bytes used as an HMAC secret.
    const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' });
    const head = part({ alg: 'HS256', typ: 'JWT' });
    const body = part(claims);
    const mac = createHmac('sha256', pem).update(`${head}.${body}`).digest('base64url');
    assert.match(await refusalOf(verifier, `${head}.${body}.${mac}`), /unsupported algorithm/);
    // …refused too where a secret is configured: the secret is not the key's bytes.
    const both = new TokenVerifier({ ...base, secret, audience: ['yeoul'] });
    assert.match(await refusalOf(both, `${head}.${body}.${mac}`), /bad signature/);
  });

  it('picks the key a kid names, the set’s only key without one, and refuses an unknown kid', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    let refreshed = 0;
    const keys = [{ kid: 'one', algorithm: 'RS256' as const, key: rsa.publicKey }];
    const verifier = new TokenVerifier({
      ...base,
      audience: ['yeoul'],
      keySet: {
        keys: () => keys,
        refreshForUnknownKey: async () => {
          refreshed += 1;
        },
      },
    });
    assert.ok((await verifier.verify(await token(rsa.privateKey, { aud: 'yeoul' }))).ok);
    assert.match(
      await refusalOf(verifier, await token(other.privateKey, { aud: 'yeoul' }, { kid: 'two' })),
      /unknown key/,
    );
    assert.equal(refreshed, 1);
    // A key with the right kid but another signer is a bad signature.
    assert.match(
      await refusalOf(verifier, await token(other.privateKey, { aud: 'yeoul' }, { kid: 'one' })),
      /bad signature/,
    );
    keys.push({ kid: 'two', algorithm: 'RS256', key: other.publicKey });
    assert.match(
      await refusalOf(verifier, await token(rsa.privateKey, { aud: 'yeoul', jti: 'later' })),
      /unknown key: it names no kid/,
    );
  });

  it('takes a token it accepted again without a second check, never past its exp', async () => {
    let lookups = 0;
    const verifier = new TokenVerifier({
      ...base,
      audience: ['yeoul'],
      keySet: {
        keys: () => {
          lookups += 1;
          return [{ kid: 'one', algorithm: 'RS256', key: rsa.publicKey }];
        },
      },
    });
    const jwt = await token(rsa.privateKey, { aud: 'yeoul' });
    for (let round = 0; round < 3; round += 1) assert.ok((await verifier.verify(jwt)).ok);
    assert.equal(lookups, 1);
    const soon = await token(rsa.privateKey, { aud: 'yeoul', exp: now() + 1 });
    assert.ok((await verifier.verify(soon)).ok);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.ok((await verifier.verify(soon)).ok, 'within the skew, checked again');
    assert.equal(lookups, 3);
  });
});
