import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { getLoadablePath } from 'sqlite-vec';
import { documentValues } from './document-values.ts';
import {
  type DocumentRow,
  documentTablesSql,
  inTransaction,
  toDocument,
  upsertDocumentSql,
} from './sqlite-document-rows.ts';
import type { Chunk, DocumentStore, PendingIndexWrite, StoredDocument } from './types.ts';

/** Where the SQLite document store keeps its tables. */
export interface SqliteDocumentStoreOptions {
  /** The database file (created with its folder), or `:memory:` (default). */
  path?: string;
  /** The clock of tickets (default `Date.now`). */
  now?: () => number;
}

// The same document and chunk tables as SqliteRetriever's, so one knowledge.sqlite serves
// either backend: switching to a cluster keeps the documents, and `yeoul reindex` indexes them.
const schemaSql = `${documentTablesSql}
CREATE TABLE IF NOT EXISTS kb_index_state (
  document_id TEXT PRIMARY KEY, ticket INTEGER NOT NULL, pending TEXT,
  attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kb_index_state_pending ON kb_index_state (pending, updated_at);
CREATE INDEX IF NOT EXISTS kb_index_state_ticket ON kb_index_state (ticket);
`;

const selectDocuments = `SELECT d.*, s.pending FROM kb_documents d
  LEFT JOIN kb_index_state s ON s.document_id = d.id`;

/**
 * Documents and chunks in SQLite, with an outbox of index writes (`kb_index_state`), for a
 * search index kept in a cluster. It keeps the embedded keyword and vector tables of
 * SqliteRetriever consistent when it removes chunks, and flags that they miss the chunks it
 * adds (SqliteRetriever rebuilds its keyword index from the chunks when it next opens).
 */
export class SqliteDocumentStore implements DocumentStore {
  readonly database: DatabaseSync;
  #now: () => number;
  #sql: Record<string, StatementSync> = {};

  constructor(options: SqliteDocumentStoreOptions = {}) {
    const path = options.path ?? ':memory:';
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#now = options.now ?? Date.now;
    this.database = new DatabaseSync(path, { allowExtension: true });
    this.database.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;',
    );
    this.database.exec(schemaSql);
    const hasVectors = this.#prepare("SELECT 1 FROM kb_meta WHERE key = 'vector_dimensions'").get();
    if (hasVectors) this.database.loadExtension(getLoadablePath());
  }

  async writeDocument(document: StoredDocument, chunks: Chunk[]): Promise<number> {
    return inTransaction(this.database, () => {
      this.#removeChunks(document.id);
      this.#prepare(upsertDocumentSql).run(...documentValues(document, chunks.length));
      const insert = this.#prepare(
        'INSERT INTO kb_chunks (id, document_id, position, heading, text, token_count) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const chunk of chunks) {
        insert.run(
          chunk.id,
          document.id,
          chunk.position,
          chunk.heading,
          chunk.text,
          chunk.tokenCount,
        );
      }
      this.#prepare(
        "INSERT OR REPLACE INTO kb_meta (key, value) VALUES ('keyword_index_incomplete', '1')",
      ).run();
      return this.#markPending(document.id, 'index');
    });
  }

  async removeDocument(id: string): Promise<number | undefined> {
    return inTransaction(this.database, () => {
      this.#removeChunks(id);
      const removed = Number(
        this.#prepare('DELETE FROM kb_documents WHERE id = ?').run(id).changes,
      );
      return removed > 0 ? this.#markPending(id, 'delete') : undefined;
    });
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const row = this.#prepare(`${selectDocuments} WHERE d.id = ?`).get(id) as
      | DocumentRow
      | undefined;
    return row ? toDocument(row) : undefined;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    const rows = this.#prepare(`${selectDocuments} ORDER BY d.updated_at DESC, d.id`).all();
    return (rows as unknown as DocumentRow[]).map(toDocument);
  }

  async chunksOf(documentId: string): Promise<Chunk[]> {
    const rows = this.#prepare(
      `SELECT id, document_id AS documentId, position, heading, text, token_count AS tokenCount
       FROM kb_chunks WHERE document_id = ? ORDER BY position`,
    ).all(documentId);
    return (rows as unknown as Chunk[]).map((row) => ({ ...row }));
  }

  async ticketOf(documentId: string): Promise<number> {
    const row = this.#prepare(
      `SELECT coalesce(s.ticket, d.updated_at * 1000, 0) AS ticket FROM (SELECT ? AS id) AS wanted
       LEFT JOIN kb_index_state s ON s.document_id = wanted.id
       LEFT JOIN kb_documents d ON d.id = wanted.id`,
    ).get(documentId) as { ticket: number };
    return row.ticket;
  }

  async pendingWrites(limit: number): Promise<PendingIndexWrite[]> {
    const rows = this.#prepare(
      `SELECT document_id AS documentId, pending AS action, ticket, attempts, last_error AS lastError
       FROM kb_index_state WHERE pending IS NOT NULL ORDER BY updated_at, document_id LIMIT ?`,
    ).all(limit);
    return (rows as unknown as PendingIndexWrite[]).map((row) => ({ ...row }));
  }

  async pendingDeletions(documentIds: string[]): Promise<Set<string>> {
    if (documentIds.length === 0) return new Set();
    const rows = this.#prepare(
      `SELECT document_id FROM kb_index_state
       WHERE pending = 'delete' AND document_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(documentIds)) as Array<{ document_id: string }>;
    return new Set(rows.map((row) => row.document_id));
  }

  async completeWrite(documentId: string, ticket: number): Promise<void> {
    this.#prepare(
      "DELETE FROM kb_index_state WHERE document_id = ? AND ticket = ? AND pending = 'delete'",
    ).run(documentId, ticket);
    this.#prepare(
      `UPDATE kb_index_state SET pending = NULL, attempts = 0, last_error = NULL
       WHERE document_id = ? AND ticket = ?`,
    ).run(documentId, ticket);
  }

  async failWrite(documentId: string, ticket: number, error: string): Promise<void> {
    this.#prepare(
      `UPDATE kb_index_state SET attempts = attempts + 1, last_error = ?
       WHERE document_id = ? AND ticket = ? AND pending IS NOT NULL`,
    ).run(error, documentId, ticket);
  }

  async markPending(documentIds?: string[]): Promise<number> {
    const result = this.#prepare(
      `INSERT INTO kb_index_state (document_id, ticket, pending, attempts, last_error, updated_at)
       SELECT id, updated_at * 1000, 'index', 0, NULL, ? FROM kb_documents
       WHERE ? IS NULL OR id IN (SELECT value FROM json_each(?))
       ON CONFLICT (document_id) DO UPDATE SET pending = 'index', updated_at = excluded.updated_at`,
    ).run(this.#now(), documentIds ? 1 : null, JSON.stringify(documentIds ?? []));
    return Number(result.changes);
  }

  async close(): Promise<void> {
    if (this.database.isOpen) this.database.close();
  }

  #lastTicket = 0;

  /** Marks a document pending with a new ticket: later than every earlier one, and roughly its time in µs. */
  #markPending(documentId: string, action: 'index' | 'delete'): number {
    const now = this.#now();
    const last = this.#prepare('SELECT max(ticket) AS ticket FROM kb_index_state').get() as {
      ticket: number | null;
    };
    // A confirmed deletion removes its row, so the table alone may forget the latest ticket:
    // the last one issued here keeps tickets growing within the same millisecond too.
    const ticket = Math.max(now * 1000, (last.ticket ?? 0) + 1, this.#lastTicket + 1);
    this.#lastTicket = ticket;
    this.#prepare(
      `INSERT OR REPLACE INTO kb_index_state (document_id, ticket, pending, attempts, last_error, updated_at)
       VALUES (?, ?, ?, 0, NULL, ?)`,
    ).run(documentId, ticket, action, now);
    return ticket;
  }

  /** Removes a document's chunks, and their rows in SqliteRetriever's keyword and vector tables when those exist. */
  #removeChunks(documentId: string): void {
    const rowids = this.#prepare('SELECT rowid FROM kb_chunks WHERE document_id = ?').all(
      documentId,
    ) as Array<{ rowid: number }>;
    const tables = new Set(
      (
        this.#prepare(
          "SELECT name FROM sqlite_master WHERE name IN ('kb_terms', 'kb_vectors')",
        ).all() as Array<{ name: string }>
      ).map((row) => row.name),
    );
    for (const { rowid } of rowids) {
      if (tables.has('kb_terms')) this.#prepare('DELETE FROM kb_terms WHERE rowid = ?').run(rowid);
      if (tables.has('kb_vectors'))
        this.#prepare('DELETE FROM kb_vectors WHERE rowid = ?').run(BigInt(rowid));
    }
    this.#prepare('DELETE FROM kb_chunks WHERE document_id = ?').run(documentId);
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#sql[sql];
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      this.#sql[sql] = statement;
    }
    return statement;
  }
}
