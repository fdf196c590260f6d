import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hs256Token } from '../testing/internal/index.ts';
import {
  createIdentityResolver,
  type IdentifyOutcome,
  identitySettingsOf,
} from './identity-resolver.ts';
import { identityVariables } from './identity-variables.ts';
import { ownerOfKey } from './key-ring.ts';
import type { AuthenticateHook } from './types.ts';

const secret = 'a-secret-of-at-least-thirty-two-bytes!';

function resolverWith(env: Record<string, string>, hook?: AuthenticateHook) {
  const settings = identitySettingsOf(identityVariables.parse(env), {
    defaultScopes: ['yeoul:read'],
  });
  return createIdentityResolver(settings, hook ? { hook: () => hook } : {});
}

function request(headers: Record<string, string> = {}) {
  return { method: 'GET', url: '/api/me', headers, ip: '127.0.0.1' };
}

function identityOf(outcome: IdentifyOutcome) {
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return { ...outcome.identity, scopes: [...outcome.identity.scopes].sort() };
}

describe('createIdentityResolver', () => {
  it('lets everyone in as the anonymous owner when nothing is configured', async () => {
    const resolver = resolverWith({});
    assert.equal(resolver.enabled, false);
    const identity = identityOf(await resolver.identify(request()));
    assert.equal(identity.owner, 'anonymous');
    assert.equal(identity.scopes.length, 4);
  });

  it('knows keys and admin keys by their tags, from Bearer or x-api-key', async () => {
    const resolver = resolverWith({ YEOUL_API_KEYS: 'key-a', YEOUL_ADMIN_KEYS: 'root' });
    assert.equal(resolver.enabled, true);
    const key = identityOf(await resolver.identify(request({ authorization: 'Bearer key-a' })));
    assert.deepEqual(key, {
      owner: ownerOfKey('key-a'),
      via: 'key',
      scopes: ['yeoul:documents', 'yeoul:read', 'yeoul:write'],
      admin: false,
      expiresAt: null,
    });
    assert.match(key.owner, /^[0-9a-f]{32}$/);
    const viaHeader = identityOf(await resolver.identify(request({ 'x-api-key': 'key-a' })));
    assert.equal(viaHeader.owner, key.owner);
    const admin = identityOf(await resolver.identify(request({ authorization: 'bearer root' })));
    assert.equal(admin.via, 'admin-key');
    assert.equal(admin.admin, true);
    assert.equal(admin.scopes.length, 4);
    const refusedHeaders: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'Basic a2V5LWE=' },
    ];
    for (const headers of refusedHeaders) {
      const outcome = await resolver.identify(request(headers));
      assert.deepEqual(outcome.ok ? 'accepted' : outcome.refusal.code, 'unauthorized');
    }
  });

  it('names a token’s owner jwt:<sub>, never a key’s owner even when sub is its tag', async () => {
    const resolver = resolverWith({ YEOUL_API_KEYS: 'key-a', YEOUL_JWT_SECRET: secret });
    const tag = ownerOfKey('key-a');
    const token = await hs256Token(secret, { sub: tag });
    const identity = identityOf(
      await resolver.identify(request({ authorization: `Bearer ${token}` })),
    );
    assert.equal(identity.owner, `jwt:${tag}`);
    assert.deepEqual(identity.scopes, ['yeoul:read'], 'the config’s default scopes');
    const forged = await hs256Token('another-secret-of-thirty-two-bytes!!!', { sub: 'x' });
    const refused = await resolver.identify(request({ 'x-api-key': forged }));
    assert.ok(!refused.ok);
    assert.equal(refused.refusal.code, 'invalid_token');
    assert.doesNotMatch(refused.refusal.message, new RegExp(forged.slice(0, 20)));
  });

  it('asks the hook after the keys: an identity, null for the token to decide, a throw refused', async () => {
    const seen: Array<Record<string, string>> = [];
    const hook: AuthenticateHook = (incoming) => {
      seen.push(incoming.headers);
      const user = incoming.headers['x-user'];
      if (user === 'boom') throw new Error('the session service is down');
      if (user === 'bad') return { owner: '' };
      if (user === 'undefined') return undefined as never;
      return user ? { owner: user, scopes: ['yeoul:write', 'openid'] } : null;
    };
    const resolver = resolverWith({ YEOUL_API_KEYS: 'key-a', YEOUL_JWT_SECRET: secret }, hook);
    assert.equal(identityOf(await resolver.identify(request({ 'x-api-key': 'key-a' }))).via, 'key');
    assert.equal(seen.length, 0, 'a known key never reaches the hook');
    const byHook = identityOf(await resolver.identify(request({ 'x-user': 'bob' })));
    assert.equal(byHook.owner, 'hook:bob');
    assert.deepEqual(byHook.scopes, ['yeoul:read', 'yeoul:write']);
    const token = await hs256Token(secret, { sub: 'carol' });
    const byToken = identityOf(
      await resolver.identify(request({ authorization: `Bearer ${token}` })),
    );
    assert.equal(byToken.owner, 'jwt:carol');
    for (const user of ['boom', 'bad', 'undefined']) {
      const outcome = await resolver.identify(
        request({ 'x-user': user, authorization: `Bearer ${token}` }),
      );
      assert.ok(!outcome.ok, user);
      assert.equal(outcome.refusal.code, 'unauthorized');
      assert.match(outcome.hookFailure?.problem ?? '', /auth\.authenticate (threw|returned)/);
    }
    const unknown = await resolver.identify(request());
    assert.ok(!unknown.ok);
    assert.equal(unknown.hookFailure, undefined, 'null without a token is a plain 401');
  });

  it('turns authentication on with a hook alone', async () => {
    const resolver = resolverWith({}, () => null);
    assert.equal(resolver.enabled, true);
    assert.equal((await resolver.identify(request())).ok, false);
  });
});
