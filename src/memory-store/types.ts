/** One stored memory: a JSON value under a namespace and key, for one owner. */
export interface MemoryItem {
  /** 1–8 segments of `[A-Za-z0-9_.:-]{1,64}` joined by `/`. */
  namespace: string;
  /** Follows the session id rule. */
  key: string;
  value: unknown;
  /** ISO time of the last put. */
  updatedAt: string;
  /** How well the item matched the query (higher is better); only when a query was given. */
  score?: number;
}

/** What a listing or search asks for; every field optional. */
export interface MemoryQuery {
  /** A namespace; matches it and the namespaces below it, whole segments only. */
  prefix?: string;
  /** Keyword (and vector, with an embedding model) search; best first when given. */
  query?: string;
  /** At most this many items (default 20, at most 100). */
  limit?: number;
}

/**
 * The long-term memory store: items per owner, never visible to another owner. Every
 * backend (SQLite, PostgreSQL) passes `memoryStoreConformance`. Names are checked
 * (`InvalidMemoryNameError`) and values bounded (`MemoryValueTooLargeError`) before any
 * backend sees them.
 */
export interface MemoryStore {
  /** Stores (or replaces) the item; returns it as stored. */
  put(owner: string, namespace: string, key: string, value: unknown): Promise<MemoryItem>;
  /** The item, or undefined when `owner` has none under that namespace and key. */
  get(owner: string, namespace: string, key: string): Promise<MemoryItem | undefined>;
  /** Removes the item; false when there was none. */
  delete(owner: string, namespace: string, key: string): Promise<boolean>;
  /** The owner's items under `prefix`: newest first, or best first for a `query`. */
  search(owner: string, query?: MemoryQuery): Promise<MemoryItem[]>;
  close(): Promise<void>;
}

/** A memory store seen by one owner (what user graphs and the chat agent are handed). */
export interface OwnerMemory {
  readonly owner: string;
  put(namespace: string, key: string, value: unknown): Promise<MemoryItem>;
  get(namespace: string, key: string): Promise<MemoryItem | undefined>;
  delete(namespace: string, key: string): Promise<boolean>;
  search(query?: MemoryQuery): Promise<MemoryItem[]>;
}
