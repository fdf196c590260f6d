import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from './errors/usage-error.ts';
import { choiceOption, integerOption, parseCommandArgs } from './parse-command-args.ts';

describe('parseCommandArgs', () => {
  const options = { k: { type: 'string', short: 'k' }, json: { type: 'boolean' } } as const;

  it('returns options and positionals', () => {
    const parsed = parseCommandArgs('search', ['a', '-k', '3', 'b', '--json'], options, {
      min: 1,
      names: 'QUERY',
    });
    assert.deepEqual(parsed.positionals, ['a', 'b']);
    assert.equal(parsed.values.k, '3');
    assert.equal(parsed.values.json, true);
  });

  it('names the unknown option, the missing value and the missing argument', () => {
    const problem = (args: string[]) => {
      try {
        parseCommandArgs('search', args, options, { min: 1, max: 1, names: 'QUERY' });
      } catch (error) {
        assert.ok(error instanceof UsageError);
        return error.message;
      }
      assert.fail('expected a UsageError');
    };
    assert.equal(problem(['a', '--fast']), 'unknown option --fast (see "yeoul search --help")');
    assert.match(problem(['a', '-k']), /^option -k needs a value/);
    assert.match(problem(['a', '--json=yes']), /^option --json takes no value/);
    assert.match(problem([]), /^missing QUERY/);
    assert.match(problem(['a', 'b']), /^unexpected argument "b"/);
  });
});

describe('integerOption and choiceOption', () => {
  it('accept values in range and refuse the rest as usage errors', () => {
    assert.equal(integerOption('search', '-k', '7', { min: 1, max: 50 }), 7);
    assert.equal(integerOption('search', '-k', undefined, { min: 1, max: 50 }), undefined);
    assert.throws(() => integerOption('search', '-k', '0', { min: 1, max: 50 }), UsageError);
    assert.throws(() => integerOption('search', '-k', '2.5', { min: 1, max: 50 }), UsageError);
    assert.equal(choiceOption('graph', 'GRAPH', 'ops', ['chat', 'ops']), 'ops');
    assert.throws(() => choiceOption('graph', 'GRAPH', 'maze', ['chat', 'ops']), /chat, ops/);
  });
});
