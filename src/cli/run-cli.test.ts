import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeCliIo as fakeIo } from '../testing/internal/index.ts';
import { runCli } from './run-cli.ts';

describe('runCli', () => {
  it('prints the usage for --help, help and help COMMAND', async () => {
    for (const args of [['--help'], ['help'], ['help', 'ingest'], ['ingest', '--help']]) {
      const io = fakeIo();
      assert.equal(await runCli(args, io), 0);
      assert.match(io.out, /Usage: yeoul /);
      assert.equal(io.err, '');
    }
  });

  it('answers bad usage with exit code 2 and one stderr line', async () => {
    for (const args of [[], ['fly'], ['--fast'], ['ask'], ['sessions', 'show'], ['graph', 'x']]) {
      const io = fakeIo();
      assert.equal(await runCli(args, io), 2, args.join(' '));
      assert.match(io.err, /^yeoul: [^\n]+\n$/);
    }
  });
});
