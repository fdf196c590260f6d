import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { siblingModule } from './sibling-module.ts';

describe('siblingModule', () => {
  it('keeps .ts beside a TypeScript source', () => {
    assert.equal(
      siblingModule('file:///repo/src/tools/math-worker.ts', 'math-worker-thread').href,
      'file:///repo/src/tools/math-worker-thread.ts',
    );
  });

  it('gives .js beside a built module', () => {
    assert.equal(
      siblingModule(
        'file:///app/node_modules/yeoul/dist/tools/math-worker.js',
        'math-worker-thread',
      ).href,
      'file:///app/node_modules/yeoul/dist/tools/math-worker-thread.js',
    );
  });
});
