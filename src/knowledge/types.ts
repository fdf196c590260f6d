/** A document as a caller hands it in. */
export interface DocumentInput {
  /** Stable id; derived from the source (path) or the content when absent. */
  id?: string;
  title?: string;
  text: string;
  /** Where it came from (a path, a URL), kept for citations. */
  source?: string;
  metadata?: Record<string, unknown>;
}

/** A document as the knowledge base keeps it. */
export interface StoredDocument {
  id: string;
  title: string;
  source: string | null;
  contentHash: string;
  metadata: Record<string, unknown>;
  chunkCount: number;
  updatedAt: number;
  /**
   * True while a search index kept outside the store (an OpenSearch cluster) has not
   * accepted the latest write: the document is stored but not yet searchable. Absent otherwise.
   */
  indexPending?: boolean;
}

/** A piece of a document, small enough to put in a prompt. */
export interface Chunk {
  /** `<documentId>#<position>` */
  id: string;
  documentId: string;
  position: number;
  /** The headings above this chunk, outermost first, joined by " > ". */
  heading: string;
  text: string;
  tokenCount: number;
}

/** One search result, best first in a list. */
export interface SearchHit {
  documentId: string;
  chunkId: string;
  title: string;
  heading: string;
  text: string;
  score: number;
  metadata: Record<string, unknown>;
}

/** Search options. */
export interface SearchOptions {
  /** How many hits (default 5, at most 50). */
  k?: number;
}

/**
 * Where chunks are indexed and searched. The embedded SQLite backend implements it; a
 * cluster backend (OpenSearch) can too, and proves itself by passing the same
 * conformance suite (`retriever-conformance.ts` beside this file).
 */
export interface Retriever {
  /** Stores a document with its chunks, replacing any earlier version, atomically. */
  upsertDocument(document: StoredDocument, chunks: Chunk[]): Promise<void>;
  /** Removes a document and its chunks; false when there was none. */
  deleteDocument(id: string): Promise<boolean>;
  getDocument(id: string): Promise<StoredDocument | undefined>;
  listDocuments(): Promise<StoredDocument[]>;
  /** The chunks that best answer `query`, best first; empty for a query with no usable terms. */
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  close(): Promise<void>;
}

/** A write to an outside search index that the index has not confirmed yet. */
export interface PendingIndexWrite {
  documentId: string;
  /** `index` (re)writes the document's chunks; `delete` removes them. */
  action: 'index' | 'delete';
  /** Orders the writes of one document: a later write has a larger ticket. */
  ticket: number;
  attempts: number;
  lastError: string | null;
}

/**
 * Where documents and chunks live when the search index is elsewhere (an OpenSearch
 * cluster): the source of truth, plus an outbox of index writes not yet confirmed. Every
 * write marks its document pending in the same transaction, so nothing is lost between
 * the store and the index. SQLite implements it (`SqliteDocumentStore`); another store
 * (PostgreSQL) fits by implementing these methods.
 */
export interface DocumentStore {
  /** Stores a document with its chunks (replacing any earlier version), marked pending; returns the write's ticket. */
  writeDocument(document: StoredDocument, chunks: Chunk[]): Promise<number>;
  /** Removes a document and its chunks, marking its index entries for deletion; the ticket, or undefined when there was none. */
  removeDocument(id: string): Promise<number | undefined>;
  /** A stored document, with `indexPending` set while its index write is outstanding. */
  getDocument(id: string): Promise<StoredDocument | undefined>;
  listDocuments(): Promise<StoredDocument[]>;
  /** A document's chunks, in order. */
  chunksOf(documentId: string): Promise<Chunk[]>;
  /** The ticket of a document's last write (0 when it was stored before the outbox existed). */
  ticketOf(documentId: string): Promise<number>;
  /** Outstanding writes, oldest first. */
  pendingWrites(limit: number): Promise<PendingIndexWrite[]>;
  /** Which of these documents wait for their index entries to be deleted. */
  pendingDeletions(documentIds: string[]): Promise<Set<string>>;
  /** The index confirmed the write with this ticket (a later write of the document stays pending). */
  completeWrite(documentId: string, ticket: number): Promise<void>;
  /** The index refused the write with this ticket: counted, and kept pending for a retry. */
  failWrite(documentId: string, ticket: number, error: string): Promise<void>;
  /** Marks stored documents pending (all when no ids are given: an empty index is to be filled); returns how many. */
  markPending(documentIds?: string[]): Promise<number>;
  close(): Promise<void>;
}

/** How the knowledge base's search index is doing, for `GET /api/agent/status`. */
export interface SearchHealth {
  backend: 'sqlite' | 'postgres' | 'opensearch';
  state: 'ok' | 'unavailable';
  /** The last failure (kept after recovery, for diagnosis); `at` is an ISO time. */
  lastError?: { code: string; message: string; at: string };
}
