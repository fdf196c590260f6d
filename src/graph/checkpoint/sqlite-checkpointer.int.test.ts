import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkpointerConformance, entryFor } from '../../testing/index.ts';
import { SqliteCheckpointer } from './sqlite-checkpointer.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-sqlite-'));
after(() => rmSync(directory, { recursive: true, force: true }));
let counter = 0;
let current = '';

checkpointerConformance(
  'sqlite',
  () => {
    counter += 1;
    current = join(directory, `conformance-${counter}.sqlite`);
    return new SqliteCheckpointer({ path: current });
  },
  () => new SqliteCheckpointer({ path: current }),
);

checkpointerConformance(
  'sqlite (exclusive, in memory)',
  () => new SqliteCheckpointer({ locking: 'exclusive' }),
);

describe('sqlite checkpointer', () => {
  it('creates the folder of a new database file', async () => {
    const checkpointer = new SqliteCheckpointer({ path: join(directory, 'a', 'b', 'c.sqlite') });
    await checkpointer.append(entryFor('t', 1));
    await checkpointer.close();
  });

  it('lets two connections of one file see each other and conflict instead of overwriting', async () => {
    const path = join(directory, 'shared.sqlite');
    const first = new SqliteCheckpointer({ path });
    const second = new SqliteCheckpointer({ path });
    await first.append(entryFor('t', 1));
    assert.equal((await second.read('t')).entries.length, 1);
    await second.append(entryFor('t', 2));
    await assert.rejects(first.append(entryFor('t', 2)), { code: 'checkpoint_conflict' });
    await first.close();
    await second.close();
  });

  it('does not close a database it was handed', async () => {
    const owner = new SqliteCheckpointer();
    const borrower = new SqliteCheckpointer({ database: owner.database });
    await borrower.close();
    assert.equal(owner.database.isOpen, true);
    await owner.close();
    assert.equal(owner.database.isOpen, false);
  });
});
