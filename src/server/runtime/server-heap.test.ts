import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  serverHeapFlags,
  serverHeapGrowingPercent,
  serverMallocEnvironment,
} from './server-heap.ts';

describe('the server heap flags', () => {
  it('caps how far the old generation grows past its live size', () => {
    assert.deepEqual(serverHeapFlags(['--max-semi-space-size=8'], ''), [
      `--heap-growing-percent=${serverHeapGrowingPercent}`,
    ]);
  });

  it('leaves a growing percent given on the command line or in NODE_OPTIONS alone', () => {
    assert.deepEqual(serverHeapFlags(['--heap-growing-percent=200'], ''), []);
    assert.deepEqual(serverHeapFlags([], '--inspect --heap_growing_percent=10'), []);
  });
});

describe('the server malloc environment', () => {
  it('asks for two arenas on Linux when the variable is not set', () => {
    assert.deepEqual(serverMallocEnvironment({}, 'linux'), { MALLOC_ARENA_MAX: '2' });
  });

  it('leaves a value of the user’s (even an empty one) and other systems alone', () => {
    assert.deepEqual(serverMallocEnvironment({ MALLOC_ARENA_MAX: '8' }, 'linux'), {});
    assert.deepEqual(serverMallocEnvironment({ MALLOC_ARENA_MAX: '' }, 'linux'), {});
    assert.deepEqual(serverMallocEnvironment({}, 'darwin'), {});
  });
});
