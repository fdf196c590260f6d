import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createId, uuidV7 } from './ids.ts';

const uuidV7Shape = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('makes UUID v7 ids', () => {
    assert.match(createId(), uuidV7Shape);
  });

  it('makes UUID v7 ids without Node 24 too, in the order they were made', () => {
    const now = Date.now();
    const ids = Array.from({ length: 5000 }, (_, index) => uuidV7(now + Math.floor(index / 2000)));
    for (const id of ids) assert.match(id, uuidV7Shape);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(Number.parseInt(ids[0]?.replaceAll('-', '').slice(0, 12) ?? '', 16), now);
  });
});
