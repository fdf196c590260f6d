import type { DatabaseSync } from 'node:sqlite';
import { type Anchor, encodeEntry, inheritsFrom } from './sqlite-entry-row.ts';
import type { CheckpointEntry, EntryKind, EntryPayload, RunStatus } from './types.ts';

/**
 * A row's key is `threadNo * seqSpan + seq`: one integer (SQLite's rowid) instead of the
 * thread id repeated on every row. A thread holds up to 16.7 million entries; thread
 * numbers go up to 2^29, within the integers JavaScript holds exactly.
 */
export const seqSpan = 2 ** 24;

/** Pages of 1 KiB (new files): a thread's rows fill them instead of leaving 4 KiB pages half empty. */
const newFilePageSize = 1024;

const schemaSql = `
CREATE TABLE IF NOT EXISTS graph_threads (
  thread_no INTEGER PRIMARY KEY,
  thread_id TEXT NOT NULL UNIQUE,
  base_seq INTEGER,
  base_json TEXT,
  base_created_at INTEGER
);
CREATE TABLE IF NOT EXISTS graph_log (
  key INTEGER PRIMARY KEY,
  status INTEGER NOT NULL,
  data TEXT NOT NULL,
  run_id TEXT,
  owner TEXT,
  created_at INTEGER
);
CREATE TABLE IF NOT EXISTS graph_instances (
  instance_id TEXT PRIMARY KEY,
  heartbeat_at INTEGER NOT NULL,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Gives a new, empty file that this checkpointer opened itself small pages (before WAL mode). */
export function prepareSchemaPageSize(database: DatabaseSync, ownFile: boolean): void {
  if (ownFile && pageCount(database) === 0) {
    database.exec(`PRAGMA page_size = ${newFilePageSize}`);
  }
}

/**
 * Creates the tables and moves the rows of the first layout (`graph_entries`, one wide row
 * per entry, and `graph_bases`) into them, in one transaction.
 */
export function prepareSchema(database: DatabaseSync): void {
  database.exec(schemaSql);
  if (!hasTable(database, 'graph_entries')) return;
  database.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have moved them while this one waited for the lock.
    if (hasTable(database, 'graph_entries')) migrateFirstLayout(database);
    database.exec('COMMIT');
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

function pageCount(database: DatabaseSync): number {
  return (database.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
}

function hasTable(database: DatabaseSync, name: string): boolean {
  return (
    database.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

interface FirstLayoutRow {
  thread_id: string;
  seq: number;
  run_id: string;
  kind: string;
  node: string | null;
  step: number;
  update_json: string | null;
  next: string | null;
  status: string;
  error_json: string | null;
  created_at: number;
  owner: string | null;
  payload_json: string | null;
}

function migrateFirstLayout(database: DatabaseSync): void {
  const columns = new Set(
    (database.prepare('PRAGMA table_info(graph_entries)').all() as Array<{ name: string }>).map(
      (column) => column.name,
    ),
  );
  const optional = (name: string) => (columns.has(name) ? name : `NULL AS ${name}`);
  const insertThread = database.prepare(
    'INSERT INTO graph_threads (thread_id) VALUES (?) ON CONFLICT (thread_id) DO UPDATE SET thread_id = excluded.thread_id RETURNING thread_no',
  );
  const insertRow = database.prepare(
    'INSERT INTO graph_log (key, status, data, run_id, owner, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const rows = database
    .prepare(
      `SELECT thread_id, seq, run_id, kind, node, step, update_json, next, status, error_json,
         created_at, ${optional('owner')}, ${optional('payload_json')}
       FROM graph_entries ORDER BY thread_id, seq`,
    )
    .iterate() as Iterable<FirstLayoutRow>;
  let thread = '';
  let threadNo = 0;
  let anchor: Anchor | null = null;
  for (const row of rows) {
    if (row.thread_id !== thread) {
      thread = row.thread_id;
      threadNo = (insertThread.get(thread) as { thread_no: number }).thread_no;
      anchor = null;
    }
    const entry = firstLayoutEntry(row);
    const inherits = inheritsFrom(anchor, entry);
    const encoded = encodeEntry(entry, inherits ? anchor : null);
    if (!inherits) anchor = { runId: entry.runId, owner: entry.owner, createdAt: entry.createdAt };
    insertRow.run(
      threadNo * seqSpan + entry.seq,
      encoded.status,
      encoded.data,
      encoded.runId,
      encoded.owner,
      encoded.createdAt,
    );
  }
  if (hasTable(database, 'graph_bases')) {
    database.exec(`
      INSERT INTO graph_threads (thread_id, base_seq, base_json, base_created_at)
        SELECT thread_id, seq, values_json, created_at FROM graph_bases WHERE true
        ON CONFLICT (thread_id) DO UPDATE SET base_seq = excluded.base_seq,
          base_json = excluded.base_json, base_created_at = excluded.base_created_at;
      DROP TABLE graph_bases;`);
  }
  database.exec('DROP TABLE graph_entries');
}

function firstLayoutEntry(row: FirstLayoutRow): CheckpointEntry {
  const parse = <T>(json: string | null) => (json === null ? null : (JSON.parse(json) as T));
  return {
    threadId: row.thread_id,
    seq: row.seq,
    runId: row.run_id,
    kind: row.kind as EntryKind,
    node: row.node,
    step: row.step,
    update: parse<Record<string, unknown>>(row.update_json),
    next: row.next,
    status: row.status as RunStatus,
    error: parse<CheckpointEntry['error']>(row.error_json),
    createdAt: row.created_at,
    owner: row.owner,
    payload: parse<EntryPayload>(row.payload_json),
  };
}
