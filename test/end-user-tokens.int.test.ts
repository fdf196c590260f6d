import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerOfKey } from '../src/identity/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import {
  type FakeIdentityProvider,
  hs256Token,
  startFakeIdentityProvider,
} from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-end-user-tokens-'));
after(() => rmSync(root, { recursive: true, force: true }));

const secret = 'end-user-secret-of-more-than-32-bytes!!';
const userKey = 'user-key-7f3a9c';
const adminKey = 'admin-key-51be02';

/** What a request got: status, the WWW-Authenticate header and the JSON body. */
async function call(
  server: RunningServer,
  path: string,
  headers: Record<string, string> = {},
  init: { method?: string; body?: unknown } = {},
) {
  const response = await fetch(server.url + path, {
    method: init.method ?? 'GET',
    headers: {
      ...headers,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    text,
    // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
    body: (text.startsWith('{') ? JSON.parse(text) : undefined) as any,
  };
}

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

describe('who is calling: keys, admin keys and end-user tokens', () => {
  let idp: FakeIdentityProvider;
  let server: RunningServer;
  const logLines: string[] = [];
  const bodies: string[] = [];
  before(async () => {
    idp = await startFakeIdentityProvider();
    const pemFile = join(root, 'issuer.pem');
    writeFileSync(pemFile, idp.publicKeyPem('RS256'));
    ({ server } = await startTestServer(
      mkdtempSync(join(root, 'data-')),
      {
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_API_KEYS: userKey,
        YEOUL_ADMIN_KEYS: adminKey,
        YEOUL_JWT_SECRET: secret,
        YEOUL_JWT_PUBLIC_KEY: pemFile,
        YEOUL_JWT_ISSUER: idp.issuer,
        YEOUL_JWT_AUDIENCE: 'yeoul,yeoul-staging',
      },
      { logLines },
    ));
  });
  after(async () => {
    await server.close();
    await idp.close();
  });

  const me = async (headers: Record<string, string>) => {
    const answer = await call(server, '/api/me', headers);
    bodies.push(answer.text);
    return answer;
  };

  it('names a key’s owner by its tag and an admin key’s with yeoul:admin, from Bearer or x-api-key', async () => {
    const key = await me(bearer(userKey));
    assert.equal(key.status, 200);
    assert.deepEqual(key.body, {
      owner: ownerOfKey(userKey),
      via: 'key',
      scopes: ['yeoul:read', 'yeoul:write', 'yeoul:documents'],
      admin: false,
      expiresAt: null,
    });
    assert.deepEqual((await me({ 'x-api-key': userKey })).body, key.body);
    const admin = await me(bearer(adminKey));
    assert.deepEqual(admin.body, {
      owner: ownerOfKey(adminKey),
      via: 'admin-key',
      scopes: ['yeoul:read', 'yeoul:write', 'yeoul:documents', 'yeoul:admin'],
      admin: true,
      expiresAt: null,
    });
  });

  it('takes HS256 and RS256 tokens as one owner jwt:<sub>, with their expiry', async () => {
    const exp = now() + 600;
    const hs = await me(
      bearer(await hs256Token(secret, { sub: 'alice', iss: idp.issuer, aud: 'yeoul', exp })),
    );
    assert.equal(hs.status, 200, hs.text);
    assert.deepEqual(hs.body, {
      owner: 'jwt:alice',
      via: 'jwt',
      scopes: ['yeoul:read', 'yeoul:write'],
      admin: false,
      expiresAt: new Date(exp * 1000).toISOString(),
    });
    const rs = await me({ 'x-api-key': await idp.sign({ sub: 'alice', aud: ['yeoul-staging'] }) });
    assert.equal(rs.status, 200, rs.text);
    assert.equal(rs.body.owner, 'jwt:alice');
    // A token whose sub is a key's tag is still another owner.
    const tag = ownerOfKey(userKey);
    const lookalike = await me(
      bearer(await hs256Token(secret, { sub: tag, iss: idp.issuer, aud: 'yeoul' })),
    );
    assert.equal(lookalike.body.owner, `jwt:${tag}`);
  });

  it('refuses every bad token with 401 invalid_token, saying why, with WWW-Authenticate', async () => {
    const claims = { sub: 'alice', iss: idp.issuer, aud: 'yeoul' };
    const signed = await idp.sign({ sub: 'alice', aud: 'yeoul' });
    const [header, , signature] = signed.split('.');
    const pem = idp.publicKeyPem('RS256');
    const confusedHead = part({ alg: 'HS256', typ: 'JWT' });
    const confusedBody = part({ ...claims, exp: now() + 600 });
    const confusedMac = createHmac('sha256', pem)
      .update(`${confusedHead}.${confusedBody}`)
      .digest('base64url');
    const cases: Array<[string, string, RegExp]> = [
      ['expired', await hs256Token(secret, { ...claims, exp: now() - 60 }), /expired/],
      ['not yet valid', await hs256Token(secret, { ...claims, nbf: now() + 600 }), /not yet valid/],
      [
        'wrong issuer',
        await hs256Token(secret, { ...claims, iss: 'https://evil.example/' }),
        /wrong issuer/,
      ],
      ['wrong audience', await idp.sign({ sub: 'alice', aud: 'someone-else' }), /wrong audience/],
      [
        'bad signature',
        await hs256Token('another-secret-of-more-than-32-bytes!!', claims),
        /bad signature/,
      ],
      [
        'altered payload',
        `${header}.${part({ ...claims, sub: 'admin', exp: now() + 600 })}.${signature}`,
        /bad signature/,
      ],
      [
        'alg none',
        `${part({ alg: 'none' })}.${part({ ...claims, exp: now() + 600 })}.`,
        /unsupported algorithm/,
      ],
      [
        'ES256 without its key',
        await idp.sign({ sub: 'alice', aud: 'yeoul' }, { algorithm: 'ES256' }),
        /unsupported algorithm/,
      ],
      [
        'HS256 signed with the public key',
        `${confusedHead}.${confusedBody}.${confusedMac}`,
        /bad signature/,
      ],
      ['no owner claim', await hs256Token(secret, { ...claims, sub: '' }), /no owner claim/],
      ['no exp', await idp.sign({ sub: 'alice', aud: 'yeoul' }, { expiresIn: null }), /no expiry/],
    ];
    for (const [name, token, reason] of cases) {
      const answer = await me(bearer(token));
      assert.equal(answer.status, 401, name);
      assert.equal(answer.body.error.code, 'invalid_token', name);
      assert.match(answer.body.error.message, reason, name);
      assert.equal(answer.challenge, 'Bearer error="invalid_token"', name);
    }
  });

  it('answers 401 unauthorized with WWW-Authenticate: Bearer without credentials, and never reads the URL', async () => {
    const token = await hs256Token(secret, { sub: 'alice', iss: idp.issuer, aud: 'yeoul' });
    for (const [path, headers] of [
      ['/api/me', {}],
      ['/api/me', bearer('not-a-key')],
      ['/api/me', { authorization: `Basic ${Buffer.from(`x:${userKey}`).toString('base64')}` }],
      [`/api/me?access_token=${token}&api_key=${userKey}`, {}],
      ['/api/no/such/route', {}],
      ['/v1/nothing', {}],
    ] as Array<[string, Record<string, string>]>) {
      const answer = await call(server, path, headers);
      bodies.push(answer.text);
      assert.equal(answer.status, 401, path);
      assert.equal(answer.challenge, 'Bearer', path);
    }
    assert.equal((await call(server, '/api/me', {})).body.error.code, 'unauthorized');
  });

  it('keeps health, metrics, the API description and the console open', async () => {
    for (const path of ['/healthz', '/metrics', '/openapi.json', '/docs', '/']) {
      assert.equal((await call(server, path)).status, 200, path);
    }
  });

  it('writes no key or token into a log line, an error body or a metric', async () => {
    const metrics = (await call(server, '/metrics')).text;
    assert.match(metrics, /yeoul_auth_failures_total\{code="invalid_token"\} \d+/);
    assert.match(metrics, /yeoul_auth_failures_total\{code="unauthorized"\} \d+/);
    assert.doesNotMatch(metrics, /alice|jwt:|owner=/);
    assert.ok(logLines.length > 20, 'the requests were logged');
    const written = [...logLines, ...bodies, metrics].join('\n');
    for (const credential of [userKey, adminKey, secret, 'eyJ']) {
      assert.equal(written.includes(credential), false, `${credential.slice(0, 8)}… was written`);
    }
  });
});

describe('end-user tokens from a JWK Set', () => {
  let idp: FakeIdentityProvider;
  before(async () => {
    idp = await startFakeIdentityProvider();
  });
  after(() => idp.close());

  it('reads a JWK Set file: the key a kid names, RS256 and ES256', async () => {
    const jwksFile = join(root, 'jwks.json');
    idp.writeJwksFile(jwksFile);
    const { server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_JWT_JWKS: jwksFile,
      YEOUL_JWT_AUDIENCE: 'yeoul',
    });
    try {
      for (const algorithm of ['RS256', 'ES256'] as const) {
        const answer = await call(
          server,
          '/api/me',
          bearer(await idp.sign({ sub: 'bob', aud: 'yeoul' }, { algorithm })),
        );
        assert.equal(answer.body.owner, 'jwt:bob', algorithm);
      }
      const stranger = await call(
        server,
        '/api/me',
        bearer(await idp.sign({ sub: 'bob', aud: 'yeoul' }, { kid: 'nobody' })),
      );
      assert.equal(stranger.status, 401);
      assert.match(stranger.body.error.message, /unknown key/);
      const unnamed = await call(
        server,
        '/api/me',
        bearer(await idp.sign({ sub: 'bob', aud: 'yeoul' }, { kid: false })),
      );
      assert.match(unnamed.body.error.message, /unknown key: it names no kid/);
    } finally {
      await server.close();
    }
  });

  it('fetches a JWK Set URL at start, and an unknown kid at most once in 10 s', async () => {
    const { server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_JWT_JWKS: idp.jwksUrl,
      YEOUL_JWT_AUDIENCE: 'yeoul',
      YEOUL_JWT_ISSUER: idp.issuer,
    });
    try {
      assert.equal(idp.fetches, 1, 'fetched at start');
      const old = await idp.sign({ sub: 'carol', aud: 'yeoul' }, { algorithm: 'ES256' });
      assert.equal((await call(server, '/api/me', bearer(old))).body.owner, 'jwt:carol');
      idp.rotate();
      idp.failWith(503);
      const answers = await Promise.all(
        Array.from({ length: 5 }, async (_, index) =>
          call(
            server,
            '/api/me',
            bearer(await idp.sign({ sub: 'carol', aud: 'yeoul' }, { kid: `k-${index}` })),
          ),
        ),
      );
      assert.ok(answers.every((answer) => /unknown key/.test(answer.body.error.message)));
      assert.equal(idp.fetches, 1, 'within 10 s of the last fetch: none');
      assert.equal((await call(server, '/api/me', bearer(old))).status, 200, 'the set held stays');
    } finally {
      await server.close();
    }
  });
});
