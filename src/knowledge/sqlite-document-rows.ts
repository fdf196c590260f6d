import type { DatabaseSync } from 'node:sqlite';
import type { StoredDocument } from './types.ts';

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
