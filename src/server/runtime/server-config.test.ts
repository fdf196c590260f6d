import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../config/index.ts';
import { readServerConfig } from './server-config.ts';

describe('server config', () => {
  it('keeps sync durability unless YEOUL_DURABILITY says async or exit', () => {
    assert.equal(readServerConfig({}).durability, 'sync');
    assert.equal(readServerConfig({ YEOUL_DURABILITY: 'async' }).durability, 'async');
    assert.equal(readServerConfig({ YEOUL_DURABILITY: 'exit' }).durability, 'exit');
  });

  it('refuses to start on another YEOUL_DURABILITY, naming it', () => {
    assert.throws(
      () => readServerConfig({ YEOUL_DURABILITY: 'sometimes' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some((problem) => problem.startsWith('YEOUL_DURABILITY:')),
    );
  });
});
