import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { environmentReference, environmentReferencePath } from './environment-reference.ts';
import { environmentSchema } from './read-environment.ts';

const repositoryRoot = join(import.meta.dirname, '..', '..', '..');

describe('the environment reference', () => {
  it('is what `npm run docs:env` writes from the schema now', () => {
    const committed = readFileSync(join(repositoryRoot, environmentReferencePath), 'utf8');
    assert.ok(
      committed === environmentReference(),
      `${environmentReferencePath} is out of date: run \`npm run docs:env\` and commit it`,
    );
  });

  it('has a row for every variable, each with its meaning', () => {
    const rows = environmentReference()
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    assert.deepEqual(
      rows.map((row) => /^\| `(\w+)` \| (.+?) \|/.exec(row)?.[1]),
      Object.keys(environmentSchema.shape),
    );
  });
});
