import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownerOfKey } from './key-ring.ts';
import { isOwnerName, ownWorkspaceFolder } from './owner-names.ts';

describe('owner names', () => {
  it('takes the owners GET /api/me names, and nothing else', () => {
    for (const owner of [
      'anonymous',
      ownerOfKey('k'),
      'jwt:alice',
      'hook:x',
      `jwt:${'a'.repeat(256)}`,
    ]) {
      assert.equal(isOwnerName(owner), true, owner);
    }
    for (const text of [
      '',
      'alice',
      'jwt:',
      'hook:',
      `jwt:${'a'.repeat(257)}`,
      'ABC',
      ownerOfKey('k').toUpperCase(),
    ]) {
      assert.equal(isOwnerName(text), false, text);
    }
  });

  it('gives end users a hashed folder of their own, keys and the anonymous owner none', () => {
    const folder = ownWorkspaceFolder('jwt:../../etc');
    assert.match(folder ?? '', /^jwt-[0-9a-f]{32}$/);
    assert.match(ownWorkspaceFolder('hook:alice') ?? '', /^hook-[0-9a-f]{32}$/);
    assert.notEqual(ownWorkspaceFolder('jwt:alice'), ownWorkspaceFolder('hook:alice'));
    assert.notEqual(ownWorkspaceFolder('jwt:alice'), ownWorkspaceFolder('jwt:bob'));
    assert.equal(ownWorkspaceFolder('jwt:alice'), ownWorkspaceFolder('jwt:alice'));
    assert.equal(ownWorkspaceFolder('anonymous'), undefined);
    assert.equal(ownWorkspaceFolder(ownerOfKey('k')), undefined);
  });
});
