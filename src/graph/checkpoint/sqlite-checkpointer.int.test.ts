import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { checkpointerConformance, entryFor } from './checkpointer-conformance.ts';
import { SqliteCheckpointer } from './sqlite-checkpointer.ts';
import type { CheckpointEntry } from './types.ts';

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

  it('names the run, owner and time only on the first row of a run; later rows hold what changed', async () => {
    const path = join(directory, 'rows.sqlite');
    const checkpointer = new SqliteCheckpointer({ path });
    const owner = checkpointer.instanceId;
    await checkpointer.append(
      entryFor('t', 1, { kind: 'input', node: null, next: 'b1', owner, runId: 'run-a' }),
    );
    const task = entryFor('t', 2, {
      kind: 'task',
      node: 'b1',
      next: 'b1',
      update: { results: 'b1:1' },
      owner,
      runId: 'run-a',
      createdAt: 1_700_000_000_009,
      payload: { interrupts: [], answered: [], task: 0 },
    });
    await checkpointer.append(task);
    await checkpointer.close();
    const database = new DatabaseSync(path);
    const rows = database
      .prepare('SELECT key, status, data, run_id, owner, created_at FROM graph_log ORDER BY key')
      .all();
    database.close();
    assert.equal(rows.length, 2);
    assert.deepEqual(
      rows.map((row) => [row.run_id, row.owner, row.created_at]),
      [
        ['run-a', owner, 1_700_000_000_001],
        [null, null, null],
      ],
    );
    assert.equal(rows[1]?.data, '[2,2,"b1",0,{"results":"b1:1"},8,{"task":0}]');
    assert.deepEqual((await new SqliteCheckpointer({ path }).read('t')).entries[1], task);
  });

  it('reads back entries whose run, owner or clock changed between them, from any step', async () => {
    const path = join(directory, 'changes.sqlite');
    const first = new SqliteCheckpointer({ path });
    const second = new SqliteCheckpointer({ path });
    const entries: CheckpointEntry[] = [];
    const add = async (checkpointer: SqliteCheckpointer, fields: Partial<CheckpointEntry>) => {
      const entry = entryFor('t', entries.length + 1, {
        owner: checkpointer.instanceId,
        ...fields,
      });
      entries.push(entry);
      await checkpointer.append(entry);
    };
    await add(first, { runId: 'run-1', createdAt: 100 });
    await add(first, { runId: 'run-1', createdAt: 150 });
    await add(first, { runId: 'run-1', createdAt: 90 }); // the clock went back
    await add(first, { runId: 'run-1', createdAt: 95, status: 'interrupted', next: null });
    await add(second, { runId: 'run-1', kind: 'resume', createdAt: 200 }); // another owner
    await add(second, { runId: 'run-1', createdAt: 201, owner: null });
    await add(second, { runId: 'run-2', kind: 'input', createdAt: 300 });
    await add(second, { runId: 'run-2', createdAt: 301, status: 'done', next: null });
    await add(first, { runId: 'run-3', kind: 'input', createdAt: 400 });
    await add(first, { runId: 'run-3', createdAt: 402 });
    for (let after = 0; after <= entries.length; after += 1) {
      assert.deepEqual(
        (await second.read('t', after)).entries,
        entries.slice(after),
        `after ${after}`,
      );
    }
    const [listed] = await second.listThreads();
    assert.deepEqual(listed, {
      threadId: 't',
      lastSeq: 10,
      status: 'running',
      runId: 'run-3',
      updatedAt: 402,
    });
    await first.close();
    await second.close();
  });

  it('keeps fields of an entry that this version does not know (added by a newer runtime)', async () => {
    const checkpointer = new SqliteCheckpointer();
    const entry = { ...entryFor('t', 1), path: ['research', 'search'] } as CheckpointEntry;
    await checkpointer.append(entry);
    assert.deepEqual((await checkpointer.read('t')).entries, [entry]);
    await checkpointer.close();
  });

  it('gives a new file 1 KiB pages, and keeps the pages of a file it did not create', async () => {
    const fresh = new SqliteCheckpointer({ path: join(directory, 'pages.sqlite') });
    const pageSize = (database: DatabaseSync) =>
      (database.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    assert.equal(pageSize(fresh.database), 1024);
    await fresh.close();
    const existing = new DatabaseSync(join(directory, 'pages-4096.sqlite'));
    existing.exec('CREATE TABLE other (id INTEGER PRIMARY KEY)');
    existing.close();
    const opened = new SqliteCheckpointer({ path: join(directory, 'pages-4096.sqlite') });
    assert.equal(pageSize(opened.database), 4096);
    await opened.close();
  });

  it('moves the entries and snapshots of a file written in the first layout, unchanged', async () => {
    const path = join(directory, 'first-layout.sqlite');
    const old = new DatabaseSync(path);
    old.exec(`
      CREATE TABLE graph_entries (thread_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT NOT NULL,
        kind TEXT NOT NULL, node TEXT, step INTEGER NOT NULL, update_json TEXT, next TEXT,
        status TEXT NOT NULL, error_json TEXT, created_at INTEGER NOT NULL,
        PRIMARY KEY (thread_id, seq)) WITHOUT ROWID;
      ALTER TABLE graph_entries ADD COLUMN owner TEXT;
      ALTER TABLE graph_entries ADD COLUMN payload_json TEXT;
      CREATE TABLE graph_bases (thread_id TEXT PRIMARY KEY, seq INTEGER NOT NULL,
        values_json TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID;`);
    const insert = old.prepare(
      'INSERT INTO graph_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const written: CheckpointEntry[] = [
      entryFor('kept', 3, { runId: 'run-2', owner: 'gone' }),
      entryFor('kept', 4, {
        runId: 'run-2',
        owner: 'gone',
        kind: 'interrupt',
        status: 'interrupted',
        next: null,
        payload: { interrupts: [], answered: ['i-0'] },
      }),
      entryFor('other', 1, { error: { code: 'x', message: 'y' }, status: 'error', next: null }),
    ];
    for (const entry of written) {
      insert.run(
        entry.threadId,
        entry.seq,
        entry.runId,
        entry.kind,
        entry.node,
        entry.step,
        JSON.stringify(entry.update),
        entry.next,
        entry.status,
        entry.error === null ? null : JSON.stringify(entry.error),
        entry.createdAt,
        entry.owner,
        entry.payload === null ? null : JSON.stringify(entry.payload),
      );
    }
    old.prepare('INSERT INTO graph_bases VALUES (?, ?, ?, ?)').run('kept', 2, '{"total":2}', 5);
    old.close();
    const checkpointer = new SqliteCheckpointer({ path });
    assert.deepEqual(await checkpointer.read('kept'), {
      base: { seq: 2, values: { total: 2 }, createdAt: 5 },
      entries: written.slice(0, 2),
    });
    assert.deepEqual((await checkpointer.read('other')).entries, written.slice(2));
    await checkpointer.append(entryFor('kept', 5, { runId: 'run-3' }));
    const tables = checkpointer.database
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
    assert.deepEqual(tables, ['graph_instances', 'graph_log', 'graph_threads']);
    await checkpointer.close();
  });
});
