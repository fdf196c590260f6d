import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Me } from '../../client/index.ts';
import { accessOf } from './access.ts';

const me = (patch: Partial<Me>): Me => ({
  owner: 'jwt:alice',
  via: 'jwt',
  scopes: ['yeoul:read', 'yeoul:write'],
  admin: false,
  expiresAt: '2030-01-01T00:00:00.000Z',
  ...patch,
});

describe('what the console offers the signed-in credentials', () => {
  it('names a token’s owner and lets it write, but not change documents, with read and write', () => {
    assert.deepEqual(accessOf(me({})), { owner: 'jwt:alice', write: true, documents: false });
  });

  it('offers nothing that writes to a read-only token', () => {
    assert.deepEqual(accessOf(me({ scopes: ['yeoul:read'] })), {
      owner: 'jwt:alice',
      write: false,
      documents: false,
    });
  });

  it('lets a key write and change documents', () => {
    const key = me({
      owner: 'a'.repeat(32),
      via: 'key',
      scopes: ['yeoul:read', 'yeoul:write', 'yeoul:documents'],
      expiresAt: null,
    });
    assert.deepEqual(accessOf(key), { owner: 'a'.repeat(32), write: true, documents: true });
  });

  it('names nobody when no one signs in', () => {
    const anonymous = me({
      owner: 'anonymous',
      via: 'anonymous',
      scopes: ['yeoul:read', 'yeoul:write', 'yeoul:documents', 'yeoul:admin'],
      admin: true,
      expiresAt: null,
    });
    assert.deepEqual(accessOf(anonymous), { owner: null, write: true, documents: true });
  });
});
