import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anonymousOwner, type Identity, ownerOfKey, type TokenOutcome } from '../identity/index.ts';
import type { Runtime } from '../server/index.ts';
import { namesOwner, ownerChoice, resolveOwner } from './owner-options.ts';

/** A runtime whose identity resolver answers `outcome` for every token. */
function runtimeVerifying(outcome: TokenOutcome): Runtime {
  return {
    identity: { start: async () => undefined, verifyToken: async () => outcome },
  } as unknown as Runtime;
}

const reader: Identity = {
  owner: 'jwt:rita',
  via: 'jwt',
  scopes: new Set(['yeoul:read']),
  admin: false,
  expiresAt: null,
};

describe('the owner options', () => {
  it('acts as the anonymous owner, a key’s tag or a named owner', async () => {
    assert.deepEqual(await ownerChoice('ask', {}), { kind: 'owner', owner: anonymousOwner });
    assert.deepEqual(await ownerChoice('ask', { key: 'k-1' }), {
      kind: 'owner',
      owner: ownerOfKey('k-1'),
    });
    assert.deepEqual(await ownerChoice('ask', { owner: 'hook:dana' }), {
      kind: 'owner',
      owner: 'hook:dana',
    });
    assert.equal(namesOwner({}), false);
    assert.equal(namesOwner({ owner: 'anonymous' }), true);
  });

  it('refuses two owner options, an empty one and an --owner that names no owner (usage)', async () => {
    for (const [values, pattern] of [
      [{ key: 'k', token: 't' }, /--key and --token each name the owner: give one/],
      [{ owner: 'alice' }, /--owner must name an owner as GET \/api\/me does/],
      [{ token: ' ' }, /--token needs a value/],
    ] as const) {
      await assert.rejects(ownerChoice('sessions', values), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'usage');
        assert.match(error.message, pattern);
        return true;
      });
    }
  });

  it('checks a token as the server does, and the scope the action needs', async () => {
    const choice = { kind: 'token', token: 'x.y.z' } as const;
    assert.equal(
      await resolveOwner(runtimeVerifying({ ok: true, identity: reader }), choice, 'yeoul:read'),
      'jwt:rita',
    );
    await assert.rejects(
      resolveOwner(runtimeVerifying({ ok: true, identity: reader }), choice, 'yeoul:write'),
      /--token was refused: this needs yeoul:write; the token of jwt:rita holds yeoul:read/,
    );
    const expired = runtimeVerifying({
      ok: false,
      refusal: {
        code: 'invalid_token',
        message: 'the token was refused: expired: its exp is past',
      },
    });
    await assert.rejects(resolveOwner(expired, choice, 'yeoul:read'), {
      code: 'token_refused',
      message: '--token was refused: expired: its exp is past',
    });
    const unconfigured = runtimeVerifying({
      ok: false,
      refusal: { code: 'unauthorized', message: 'a valid key or token is required' },
    });
    await assert.rejects(
      resolveOwner(unconfigured, choice, 'yeoul:read'),
      /no end-user tokens are configured/,
    );
  });
});
