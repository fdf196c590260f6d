import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { immediateTransaction } from '../core/index.ts';
import { prefixRange } from './memory-names.ts';
import {
  type MemoryRow,
  type MemoryRows,
  type MemoryRowWrite,
  type MemoryTermMatch,
  vectorBytes,
  vectorOfBytes,
} from './memory-rows.ts';

const schema = `
CREATE TABLE IF NOT EXISTS memory_items (
  id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  token_count INTEGER NOT NULL,
  embedding BLOB,
  UNIQUE (owner, namespace, key)
);
CREATE INDEX IF NOT EXISTS memory_items_recent ON memory_items (owner, updated_at DESC);
CREATE INDEX IF NOT EXISTS memory_items_lengths ON memory_items (owner, token_count);
CREATE TABLE IF NOT EXISTS memory_terms (
  owner TEXT NOT NULL,
  token TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (owner, token, item_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS memory_terms_item ON memory_terms (item_id);
-- Each owner's item and token totals (BM25's average length), kept with every write.
CREATE TABLE IF NOT EXISTS memory_owners (
  owner TEXT PRIMARY KEY,
  items INTEGER NOT NULL,
  tokens INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Whole-segment prefix match: `?1` null for no prefix, else the prefix, `prefix/`, `prefix0`. */
const underPrefix = '(?1 IS NULL OR i.namespace = ?1 OR (i.namespace >= ?2 AND i.namespace < ?3))';
const rowColumns = 'i.id, i.namespace, i.key, i.value, i.updated_at AS updatedAt';

/**
 * The memory store's rows in an embedded SQLite file of its own (`memory.sqlite` in the data
 * folder): WAL, so a `yeoul memory` command can write beside a running server, which sees
 * the write at once; and pruning the threads' database (VACUUM) never locks memories.
 */
export class SqliteMemoryRows implements MemoryRows {
  #database: DatabaseSync;
  #upsert: StatementSync;
  #deleteTerms: StatementSync;
  #insertTerm: StatementSync;
  #get: StatementSync;
  #delete: StatementSync;
  #recent: StatementSync;
  #matches: StatementSync;
  #itemsWith: StatementSync;
  #totals: StatementSync;
  #tokenCountOf: StatementSync;
  #addTotals: StatementSync;
  #byIds: StatementSync;
  #vectors: StatementSync;

  constructor(options: { path: string }) {
    this.#database = new DatabaseSync(options.path, { timeout: 5_000 });
    // WAL with synchronous NORMAL, as the checkpoints: a crash of the process loses nothing.
    if (options.path !== ':memory:') {
      this.#database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
    }
    this.#database.exec(schema);
    const prepare = (sql: string) => this.#database.prepare(sql);
    this.#upsert = prepare(
      `INSERT INTO memory_items (owner, namespace, key, value, updated_at, token_count, embedding)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (owner, namespace, key) DO UPDATE SET value = excluded.value,
         updated_at = excluded.updated_at, token_count = excluded.token_count,
         embedding = excluded.embedding
       RETURNING id`,
    );
    this.#deleteTerms = prepare('DELETE FROM memory_terms WHERE item_id = ?');
    this.#insertTerm = prepare(
      'INSERT INTO memory_terms (owner, token, item_id, count) VALUES (?, ?, ?, ?)',
    );
    this.#get = prepare(
      `SELECT ${rowColumns} FROM memory_items i WHERE i.owner = ? AND i.namespace = ? AND i.key = ?`,
    );
    this.#delete = prepare(
      'DELETE FROM memory_items WHERE owner = ? AND namespace = ? AND key = ? RETURNING id, token_count',
    );
    this.#recent = prepare(
      `SELECT ${rowColumns} FROM memory_items i WHERE i.owner = ?4 AND ${underPrefix}
       ORDER BY i.updated_at DESC, i.id DESC LIMIT ?5`,
    );
    this.#matches = prepare(
      `SELECT t.item_id AS id, t.token, t.count, i.token_count AS tokenCount
       FROM memory_terms t JOIN memory_items i ON i.id = t.item_id
       WHERE t.owner = ?4 AND t.token IN (SELECT value FROM json_each(?5)) AND ${underPrefix}`,
    );
    this.#itemsWith = prepare(
      `SELECT token, count(*) AS items FROM memory_terms
       WHERE owner = ? AND token IN (SELECT value FROM json_each(?)) GROUP BY token`,
    );
    this.#totals = prepare('SELECT items, tokens FROM memory_owners WHERE owner = ?');
    this.#tokenCountOf = prepare(
      'SELECT token_count FROM memory_items WHERE owner = ? AND namespace = ? AND key = ?',
    );
    this.#addTotals = prepare(
      `INSERT INTO memory_owners (owner, items, tokens) VALUES (?, ?, ?)
       ON CONFLICT (owner) DO UPDATE SET items = items + excluded.items, tokens = tokens + excluded.tokens`,
    );
    this.#byIds = prepare(
      `SELECT ${rowColumns} FROM memory_items i
       WHERE i.owner = ? AND i.id IN (SELECT value FROM json_each(?))`,
    );
    this.#vectors = prepare(
      `SELECT i.id, i.embedding FROM memory_items i
       WHERE i.owner = ?4 AND i.embedding IS NOT NULL AND ${underPrefix}`,
    );
  }

  async upsert(write: MemoryRowWrite): Promise<void> {
    immediateTransaction(this.#database, () => {
      const previous = this.#tokenCountOf.get(write.owner, write.namespace, write.key) as
        | { token_count: number }
        | undefined;
      const { id } = this.#upsert.get(
        write.owner,
        write.namespace,
        write.key,
        write.value,
        write.updatedAt,
        write.tokenCount,
        write.embedding ? vectorBytes(write.embedding) : null,
      ) as { id: number };
      this.#deleteTerms.run(id);
      for (const [token, count] of write.terms) this.#insertTerm.run(write.owner, token, id, count);
      this.#addTotals.run(
        write.owner,
        previous ? 0 : 1,
        write.tokenCount - (previous?.token_count ?? 0),
      );
    });
  }

  async get(owner: string, namespace: string, key: string): Promise<MemoryRow | undefined> {
    return this.#get.get(owner, namespace, key) as MemoryRow | undefined;
  }

  async delete(owner: string, namespace: string, key: string): Promise<boolean> {
    return immediateTransaction(this.#database, () => {
      const row = this.#delete.get(owner, namespace, key) as
        | { id: number; token_count: number }
        | undefined;
      if (row) {
        this.#deleteTerms.run(row.id);
        this.#addTotals.run(owner, -1, -row.token_count);
      }
      return row !== undefined;
    });
  }

  async recent(owner: string, prefix: string | undefined, limit: number): Promise<MemoryRow[]> {
    return this.#recent.all(...prefixRange(prefix), owner, limit) as unknown as MemoryRow[];
  }

  async termMatches(
    owner: string,
    prefix: string | undefined,
    tokens: readonly string[],
  ): Promise<MemoryTermMatch[]> {
    return this.#matches.all(
      ...prefixRange(prefix),
      owner,
      JSON.stringify(tokens),
    ) as unknown as MemoryTermMatch[];
  }

  async itemsWith(owner: string, tokens: readonly string[]): Promise<Map<string, number>> {
    const rows = this.#itemsWith.all(owner, JSON.stringify(tokens)) as Array<{
      token: string;
      items: number;
    }>;
    return new Map(rows.map((row) => [row.token, row.items]));
  }

  async totals(owner: string): Promise<{ items: number; tokens: number }> {
    return (
      (this.#totals.get(owner) as { items: number; tokens: number } | undefined) ?? {
        items: 0,
        tokens: 0,
      }
    );
  }

  async byIds(owner: string, ids: readonly number[]): Promise<MemoryRow[]> {
    return this.#byIds.all(owner, JSON.stringify(ids)) as unknown as MemoryRow[];
  }

  async vectors(owner: string, prefix: string | undefined) {
    const rows = this.#vectors.all(...prefixRange(prefix), owner) as unknown as Array<{
      id: number;
      embedding: Uint8Array;
    }>;
    return rows.map(({ id, embedding }) => ({ id, embedding: vectorOfBytes(embedding) }));
  }

  async close(): Promise<void> {
    if (this.#database.isOpen) this.#database.close();
  }
}
