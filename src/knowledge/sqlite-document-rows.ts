import type { DatabaseSync } from 'node:sqlite';
import type { StoredDocument } from './types.ts';

/**
 * The document, chunk and meta tables SqliteRetriever and SqliteDocumentStore share, so one
 * knowledge.sqlite serves either backend.
 */
export const documentTablesSql = `
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
CREATE TABLE IF NOT EXISTS kb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Writes a document's row (values from `documentValues`), replacing its old version. */
export const upsertDocumentSql = `INSERT OR REPLACE INTO kb_documents (id, title, source, content_hash, metadata_json, chunk_count, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;

/** A row of `kb_documents` (with the OpenSearch store's pending marker when it joins it). */
export interface DocumentRow {
  id: string;
  title: string;
  source: string | null;
  content_hash: string;
  metadata_json: string;
  chunk_count: number;
  updated_at: number;
  pending?: string | null;
}

/** A stored document from its row. */
export function toDocument(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    contentHash: row.content_hash,
    metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    chunkCount: row.chunk_count,
    updatedAt: row.updated_at,
    ...(row.pending === 'index' ? { indexPending: true } : {}),
  };
}

/** Runs `work` in one immediate transaction: all of it is stored, or none. */
export function inTransaction<Result>(database: DatabaseSync, work: () => Result): Result {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}
