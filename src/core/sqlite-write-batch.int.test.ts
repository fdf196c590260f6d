import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { SqliteWriteBatch } from './sqlite-write-batch.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-batch-'));
after(() => rmSync(directory, { recursive: true, force: true }));
let counter = 0;

function open() {
  counter += 1;
  const path = join(directory, `batch-${counter}.sqlite`);
  const writer = new DatabaseSync(path);
  writer.exec('PRAGMA journal_mode = WAL; CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
  const reader = new DatabaseSync(path);
  const count = () => (reader.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  return { writer, reader, count, batch: SqliteWriteBatch.of(writer) };
}

describe('sqlite write batch', () => {
  it('commits the writes of one tick in one transaction, and resolves only after the commit', async () => {
    const { writer, count, batch } = open();
    const insert = writer.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const seen: Array<{ inTransaction: boolean; committedElsewhere: number }> = [];
    const writes = [1, 2, 3].map((id) =>
      batch.run(() => {
        insert.run(id, `item ${id}`);
        seen.push({ inTransaction: writer.isTransaction, committedElsewhere: count() });
        return id;
      }),
    );
    assert.equal(count(), 0, 'nothing is written before the batch runs');
    assert.deepEqual(await Promise.all(writes), [1, 2, 3]);
    // Every write ran inside the same open transaction: another connection saw none of them.
    assert.deepEqual(seen, [
      { inTransaction: true, committedElsewhere: 0 },
      { inTransaction: true, committedElsewhere: 0 },
      { inTransaction: true, committedElsewhere: 0 },
    ]);
    assert.equal(count(), 3, 'all three are committed once the promises resolve');
    assert.equal(SqliteWriteBatch.of(writer), batch, 'one batch per connection');
  });

  it('fails a write alone: the others of its batch are kept', async () => {
    const { writer, count, batch } = open();
    const insert = writer.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const results = await Promise.allSettled([
      batch.run(() => insert.run(1, 'first')),
      batch.run(() => insert.run(1, 'duplicate id')),
      batch.run(() => insert.run(2, 'second')),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE constraint/);
    assert.equal(count(), 2);
  });

  it('rejects every write of a batch that cannot start its transaction, and recovers after', async () => {
    const { writer, reader, count, batch } = open();
    const insert = writer.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    writer.exec('PRAGMA busy_timeout = 0');
    reader.exec('BEGIN IMMEDIATE'); // another connection holds the write lock
    const results = await Promise.allSettled([
      batch.run(() => insert.run(1, 'a')),
      batch.run(() => insert.run(2, 'b')),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.match(String((results[0] as PromiseRejectedResult).reason), /locked|busy/i);
    // A write alone runs as its own transaction, and fails the same way.
    await assert.rejects(
      batch.run(() => insert.run(9, 'alone')),
      /locked|busy/i,
    );
    reader.exec('ROLLBACK');
    await batch.run(() => insert.run(3, 'c'));
    assert.equal(count(), 1);
  });

  it('rejects writes once the connection is closed', async () => {
    const { writer, batch } = open();
    const pending = batch.run(() => 1);
    writer.close();
    await assert.rejects(pending, /closed/);
  });
});
