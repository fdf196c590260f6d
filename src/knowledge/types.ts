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
 * conformance suite (`src/testing/retriever-conformance.ts`).
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
