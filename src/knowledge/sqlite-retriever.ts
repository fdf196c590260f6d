import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { indexTerms, queryTerms } from './analyzer.ts';
import type { Chunk, Retriever, SearchHit, SearchOptions, StoredDocument } from './types.ts';

/** How the SQLite retriever opens its database. */
export interface SqliteRetrieverOptions {
  /** The database file (created with its folder), or `:memory:` (default). */
  path?: string;
  /** Weight of title matches against body matches in BM25 (default 2). */
  titleWeight?: number;
}

const schemaSql = `
CREATE TABLE IF NOT EXISTS kb_documents (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  source TEXT,
  content_hash TEXT NOT NULL,
  metadata_json TEXT NOT NULL,
  chunk_count INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS kb_chunks (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  document_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL,
  token_count INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kb_chunks_document ON kb_chunks (document_id);
CREATE VIRTUAL TABLE IF NOT EXISTS kb_terms USING fts5(
  title, body, content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

interface Statements {
  upsertDocument: StatementSync;
  chunkRowids: StatementSync;
  deleteTerms: StatementSync;
  deleteChunks: StatementSync;
  deleteDocument: StatementSync;
  insertChunk: StatementSync;
  insertTerms: StatementSync;
  getDocument: StatementSync;
  listDocuments: StatementSync;
  search: StatementSync;
}

interface DocumentRow {
  id: string;
  title: string;
  source: string | null;
  content_hash: string;
  metadata_json: string;
  chunk_count: number;
  updated_at: number;
}

/**
 * The embedded knowledge index: documents and chunks in SQLite tables, their terms in
 * an FTS5 index ranked by BM25. Keyword-only; vectors live beside it when configured.
 */
export class SqliteRetriever implements Retriever {
  readonly database: DatabaseSync;
  #titleWeight: number;
  #statements: Statements;

  constructor(options: SqliteRetrieverOptions = {}) {
    const path = options.path ?? ':memory:';
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.database = new DatabaseSync(path);
    this.database.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;',
    );
    this.database.exec(schemaSql);
    this.#titleWeight = options.titleWeight ?? 2;
    const prepare = (sql: string): StatementSync => this.database.prepare(sql);
    this.#statements = {
      upsertDocument: prepare(
        `INSERT OR REPLACE INTO kb_documents (id, title, source, content_hash, metadata_json, chunk_count, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      chunkRowids: prepare('SELECT rowid FROM kb_chunks WHERE document_id = ?'),
      deleteTerms: prepare('DELETE FROM kb_terms WHERE rowid = ?'),
      deleteChunks: prepare('DELETE FROM kb_chunks WHERE document_id = ?'),
      deleteDocument: prepare('DELETE FROM kb_documents WHERE id = ?'),
      insertChunk: prepare(
        'INSERT INTO kb_chunks (id, document_id, position, heading, text, token_count) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertTerms: prepare('INSERT INTO kb_terms (rowid, title, body) VALUES (?, ?, ?)'),
      getDocument: prepare('SELECT * FROM kb_documents WHERE id = ?'),
      listDocuments: prepare('SELECT * FROM kb_documents ORDER BY updated_at DESC, id'),
      search: prepare(
        `SELECT c.id AS chunk_id, c.document_id, c.heading, c.text, d.title, d.metadata_json, -m.rank AS score
         FROM (SELECT rowid, bm25(kb_terms, ?, 1.0) AS rank FROM kb_terms WHERE kb_terms MATCH ? ORDER BY rank LIMIT ?) m
         JOIN kb_chunks c ON c.rowid = m.rowid
         JOIN kb_documents d ON d.id = c.document_id
         ORDER BY m.rank`,
      ),
    };
  }

  async upsertDocument(document: StoredDocument, chunks: Chunk[]): Promise<void> {
    this.#transaction(() => {
      this.#removeChunks(document.id);
      const s = this.#statements;
      s.upsertDocument.run(
        document.id,
        document.title,
        document.source,
        document.contentHash,
        JSON.stringify(document.metadata),
        chunks.length,
        document.updatedAt,
      );
      const titleTerms = indexTerms(document.title).join(' ');
      for (const chunk of chunks) {
        const { lastInsertRowid } = s.insertChunk.run(
          chunk.id,
          chunk.documentId,
          chunk.position,
          chunk.heading,
          chunk.text,
          chunk.tokenCount,
        ) as { lastInsertRowid: number | bigint };
        s.insertTerms.run(
          lastInsertRowid,
          titleTerms,
          indexTerms(`${chunk.heading}\n${chunk.text}`).join(' '),
        );
      }
    });
  }

  async deleteDocument(id: string): Promise<boolean> {
    let existed = false;
    this.#transaction(() => {
      this.#removeChunks(id);
      existed = Number(this.#statements.deleteDocument.run(id).changes) > 0;
    });
    return existed;
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const row = this.#statements.getDocument.get(id) as DocumentRow | undefined;
    return row ? toDocument(row) : undefined;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    return (this.#statements.listDocuments.all() as unknown as DocumentRow[]).map(toDocument);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const k = Math.min(Math.max(Math.trunc(options.k ?? 5), 1), 50);
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    // Every term is quoted, so nothing a user types is read as FTS5 syntax.
    const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
    const rows = this.#statements.search.all(this.#titleWeight, match, k) as unknown as Array<{
      chunk_id: string;
      document_id: string;
      heading: string;
      text: string;
      title: string;
      metadata_json: string;
      score: number;
    }>;
    return rows.map((row) => ({
      documentId: row.document_id,
      chunkId: row.chunk_id,
      title: row.title,
      heading: row.heading,
      text: row.text,
      score: row.score,
      metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    }));
  }

  async close(): Promise<void> {
    if (this.database.isOpen) this.database.close();
  }

  #removeChunks(documentId: string): void {
    const s = this.#statements;
    for (const row of s.chunkRowids.all(documentId) as Array<{ rowid: number }>)
      s.deleteTerms.run(row.rowid);
    s.deleteChunks.run(documentId);
  }

  #transaction(work: () => void): void {
    this.database.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }
}

function toDocument(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    contentHash: row.content_hash,
    metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    chunkCount: row.chunk_count,
    updatedAt: row.updated_at,
  };
}
