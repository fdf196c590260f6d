/** One stored item as a backend keeps it: the value still JSON text, the time in milliseconds. */
export interface MemoryRow {
  id: number;
  namespace: string;
  key: string;
  value: string;
  updatedAt: number;
}

/** What a put writes: the item, its keyword tokens (with counts) and its vector, if any. */
export interface MemoryRowWrite {
  owner: string;
  namespace: string;
  key: string;
  value: string;
  updatedAt: number;
  terms: ReadonlyMap<string, number>;
  tokenCount: number;
  embedding: Float32Array | undefined;
}

/** One query token found in one of the owner's items, with what BM25 needs of it. */
export interface MemoryTermMatch {
  id: number;
  token: string;
  /** How often the item holds the token. */
  count: number;
  /** The item's length in tokens. */
  tokenCount: number;
}

/**
 * The storage primitives a backend provides (SQLite, PostgreSQL). Every method is scoped to
 * one owner; a `prefix` is matched as whole segments (`prefixRange`), never as a pattern.
 * Validation and ranking live above, in `RowMemoryStore`, once for every backend.
 */
export interface MemoryRows {
  upsert(write: MemoryRowWrite): Promise<void>;
  get(owner: string, namespace: string, key: string): Promise<MemoryRow | undefined>;
  delete(owner: string, namespace: string, key: string): Promise<boolean>;
  /** The newest items under the prefix. */
  recent(owner: string, prefix: string | undefined, limit: number): Promise<MemoryRow[]>;
  /** How many of the owner's items hold each token (tokens in none are left out). */
  itemsWith(owner: string, tokens: readonly string[]): Promise<Map<string, number>>;
  /** Every (item, token) of the owner's items under the prefix holding any of the tokens. */
  termMatches(
    owner: string,
    prefix: string | undefined,
    tokens: readonly string[],
  ): Promise<MemoryTermMatch[]>;
  /** The owner's items and their tokens in all (BM25's average length). */
  totals(owner: string): Promise<{ items: number; tokens: number }>;
  /** The owner's items of these ids. */
  byIds(owner: string, ids: readonly number[]): Promise<MemoryRow[]>;
  /** The id and vector of every item under the prefix that has one. */
  vectors(
    owner: string,
    prefix: string | undefined,
  ): Promise<Array<{ id: number; embedding: Float32Array }>>;
  close(): Promise<void>;
}

/** A vector as stored: little-endian float32 bytes. */
export function vectorBytes(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** The vector of stored bytes: a view when they are aligned, else a copy. */
export function vectorOfBytes(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0) {
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
