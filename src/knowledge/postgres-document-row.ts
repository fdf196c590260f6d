import type { StoredDocument } from './types.ts';

/** A row of PostgreSQL's `kb_documents` (with the outbox's pending marker when joined). */
export interface PostgresDocumentRow extends Record<string, unknown> {
  id: string;
  title: string;
  source: string | null;
  content_hash: string;
  metadata: Record<string, unknown>;
  chunk_count: number;
  updated_at: string;
  pending?: string | null;
}

/** A stored document from its PostgreSQL row. */
export function toPostgresDocument(row: PostgresDocumentRow): StoredDocument {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    contentHash: row.content_hash,
    metadata: row.metadata,
    chunkCount: row.chunk_count,
    updatedAt: Number(row.updated_at),
    ...(row.pending === 'index' ? { indexPending: true } : {}),
  };
}
