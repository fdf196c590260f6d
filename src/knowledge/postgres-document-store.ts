import {
  type PostgresClient,
  type PostgresPool,
  queryPostgres,
  withTransaction,
} from '../core/index.ts';
import { type PostgresDocumentRow, toPostgresDocument } from './postgres-document-row.ts';
import { writeDocument } from './postgres-write-document.ts';
import type { Chunk, DocumentStore, PendingIndexWrite, StoredDocument } from './types.ts';

/** How the PostgreSQL document store stamps its writes. */
export interface PostgresDocumentStoreOptions {
  /** The clock of tickets (default `Date.now`). */
  now?: () => number;
}

const selectDocuments = `SELECT d.*, s.pending FROM kb_documents d
  LEFT JOIN kb_index_state s ON s.document_id = d.id`;

// The next ticket: past every earlier one of any instance, and roughly the time in µs. Taken
// last in a write's transaction, so the shared row stays locked only until the commit.
const nextTicketSql = `UPDATE kb_ticket_clock SET ticket = greatest(ticket + 1, $1::bigint)
  RETURNING ticket`;

const markSql = `INSERT INTO kb_index_state (document_id, ticket, pending, attempts, last_error, updated_at)
  VALUES ($1, $2, $3, 0, NULL, $4)
  ON CONFLICT (document_id) DO UPDATE SET ticket = excluded.ticket, pending = excluded.pending,
    attempts = 0, last_error = NULL, updated_at = excluded.updated_at`;

interface WriteRow extends Record<string, unknown> {
  document_id: string;
  pending: 'index' | 'delete';
  ticket: string;
  attempts: number;
  last_error: string | null;
}

/**
 * Documents and chunks in PostgreSQL, with an outbox of index writes (`kb_index_state`), for
 * an OpenSearch index beside the database: shared by every instance on one database. Its
 * tables are PostgresRetriever's (the keyword postings are written too), so switching the
 * index keeps the documents. Two instances may drain the same outbox at once: a write is sent
 * with its ticket as OpenSearch's external version, so the second copy is refused as a
 * conflict (counted as done), and completing a ticket twice changes nothing.
 * @example
 * const store = new PostgresDocumentStore(pool);
 * const retriever = await OpenSearchRetriever.open({ settings, store });
 */
export class PostgresDocumentStore implements DocumentStore {
  readonly pool: PostgresPool;
  #now: () => number;

  /** Uses `pool`, shared with other stores: `close()` leaves it open. */
  constructor(pool: PostgresPool, options: PostgresDocumentStoreOptions = {}) {
    this.pool = pool;
    this.#now = options.now ?? Date.now;
  }

  async writeDocument(document: StoredDocument, chunks: Chunk[]): Promise<number> {
    return withTransaction(this.pool, async (client) => {
      await writeDocument(client, document, chunks, undefined);
      return this.#markPending(client, document.id, 'index');
    });
  }

  async removeDocument(id: string): Promise<number | undefined> {
    return withTransaction(this.pool, async (client) => {
      // Cascades to chunks and postings; the corpus statistics follow by trigger.
      const { rowCount } = await client.query('DELETE FROM kb_documents WHERE id = $1', [id]);
      return (rowCount ?? 0) > 0 ? this.#markPending(client, id, 'delete') : undefined;
    });
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const { rows } = await queryPostgres<PostgresDocumentRow>(
      this.pool,
      `${selectDocuments} WHERE d.id = $1`,
      [id],
    );
    return rows[0] ? toPostgresDocument(rows[0]) : undefined;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    const { rows } = await queryPostgres<PostgresDocumentRow>(
      this.pool,
      `${selectDocuments} ORDER BY d.updated_at DESC, d.id`,
    );
    return rows.map(toPostgresDocument);
  }

  async chunksOf(documentId: string): Promise<Chunk[]> {
    const { rows } = await queryPostgres<Chunk & Record<string, unknown>>(
      this.pool,
      `SELECT id, document_id AS "documentId", position, heading, text, token_count AS "tokenCount"
       FROM kb_chunks WHERE document_id = $1 ORDER BY position`,
      [documentId],
    );
    return rows.map((row) => ({ ...row }));
  }

  async ticketOf(documentId: string): Promise<number> {
    const { rows } = await queryPostgres<{ ticket: string }>(
      this.pool,
      `SELECT coalesce(s.ticket, d.updated_at * 1000, 0) AS ticket FROM (SELECT $1::text AS id) AS wanted
       LEFT JOIN kb_index_state s ON s.document_id = wanted.id
       LEFT JOIN kb_documents d ON d.id = wanted.id`,
      [documentId],
    );
    return Number(rows[0]?.ticket ?? 0);
  }

  async pendingWrites(limit: number): Promise<PendingIndexWrite[]> {
    const { rows } = await queryPostgres<WriteRow>(
      this.pool,
      `SELECT document_id, pending, ticket, attempts, last_error FROM kb_index_state
       WHERE pending IS NOT NULL ORDER BY updated_at, document_id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      documentId: row.document_id,
      action: row.pending,
      ticket: Number(row.ticket),
      attempts: row.attempts,
      lastError: row.last_error,
    }));
  }

  async pendingDeletions(documentIds: string[]): Promise<Set<string>> {
    if (documentIds.length === 0) return new Set();
    const { rows } = await queryPostgres<{ document_id: string }>(
      this.pool,
      `SELECT document_id FROM kb_index_state
       WHERE pending = 'delete' AND document_id = ANY($1::text[])`,
      [documentIds],
    );
    return new Set(rows.map((row) => row.document_id));
  }

  async completeWrite(documentId: string, ticket: number): Promise<void> {
    // One statement: a confirmed deletion leaves no row, a confirmed write clears the mark.
    await queryPostgres(
      this.pool,
      `WITH gone AS (
         DELETE FROM kb_index_state WHERE document_id = $1 AND ticket = $2 AND pending = 'delete'
         RETURNING document_id
       )
       UPDATE kb_index_state SET pending = NULL, attempts = 0, last_error = NULL
       WHERE document_id = $1 AND ticket = $2 AND NOT EXISTS (SELECT 1 FROM gone)`,
      [documentId, ticket],
    );
  }

  async failWrite(documentId: string, ticket: number, error: string): Promise<void> {
    await queryPostgres(
      this.pool,
      `UPDATE kb_index_state SET attempts = attempts + 1, last_error = $3
       WHERE document_id = $1 AND ticket = $2 AND pending IS NOT NULL`,
      [documentId, ticket, error],
    );
  }

  async markPending(documentIds?: string[]): Promise<number> {
    const { rowCount } = await queryPostgres(
      this.pool,
      `INSERT INTO kb_index_state (document_id, ticket, pending, attempts, last_error, updated_at)
       SELECT id, updated_at * 1000, 'index', 0, NULL, $1 FROM kb_documents
       WHERE $2::text[] IS NULL OR id = ANY($2::text[])
       ON CONFLICT (document_id) DO UPDATE SET pending = 'index', updated_at = excluded.updated_at`,
      [this.#now(), documentIds ?? null],
    );
    return rowCount;
  }

  /** The pool is shared (the server's): nothing to close. */
  async close(): Promise<void> {}

  async #markPending(
    client: PostgresClient,
    documentId: string,
    action: 'index' | 'delete',
  ): Promise<number> {
    const now = this.#now();
    const { rows } = await client.query<{ ticket: string }>(nextTicketSql, [now * 1000]);
    const ticket = Number(rows[0]?.ticket);
    await client.query(markSql, [documentId, ticket, action, now]);
    return ticket;
  }
}
