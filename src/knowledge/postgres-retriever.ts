import {
  createPostgresPool,
  type PostgresPool,
  type PostgresPoolOptions,
  queryPostgres,
  withTransaction,
} from '../core/index.ts';
import type { Embedder } from '../models/index.ts';
import { embeddingTextOf } from './embedding-text.ts';
import { hitCount, hitsInRankOrder, topRanked } from './fuse-rankings.ts';
import { type PostgresDocumentRow, toPostgresDocument } from './postgres-document-row.ts';
import { keywordRanks, type RankedChunk } from './postgres-keyword-index.ts';
import { PostgresVectorIndex } from './postgres-vector-index.ts';
import { writeDocument } from './postgres-write-document.ts';
import type { Chunk, Retriever, SearchHit, SearchOptions, StoredDocument } from './types.ts';
import { weightedKeywordTokens } from './weighted-bm25.ts';

/** How the PostgreSQL retriever searches; the schema comes from `knowledgeMigrations`. */
export interface PostgresRetrieverOptions {
  /** Weight of title matches against body matches in BM25 (default 2, as in SQLite). */
  titleWeight?: number;
  /** Embeds chunks and queries; search then fuses keyword and vector rankings (RRF). */
  embedder?: Embedder;
  /** Vector hits less similar than this (cosine, 0..1) are left out (default 0.25). */
  minSimilarity?: number;
}

/** How many candidates each ranking contributes before fusion. */
const candidatesPerRanking = 50;

const hitsSql = `
SELECT chunks.rowid, chunks.id AS chunk_id, chunks.document_id, chunks.heading, chunks.text,
  documents.title, documents.metadata
FROM kb_chunks AS chunks JOIN kb_documents AS documents ON documents.id = chunks.document_id
WHERE chunks.rowid = ANY($1::bigint[])`;

interface HitRow extends Record<string, unknown> {
  rowid: string;
  chunk_id: string;
  document_id: string;
  heading: string;
  text: string;
  title: string;
  metadata: Record<string, unknown>;
}

/**
 * The knowledge base on PostgreSQL, shared by every instance using one database: documents
 * and chunks in tables, the Korean-aware keyword index as postings ranked by BM25 in the
 * database (the SQLite index's terms, weights and formula, so both rank alike), and, with an
 * embedder, vectors as `real[]` (exact cosine, or pgvector's HNSW index when available).
 * Apply `knowledgeMigrations` first (the server does at start).
 * @example
 * const retriever = new PostgresRetriever(pool);
 * const hits = await retriever.search('연차는 며칠인가요?');
 */
export class PostgresRetriever implements Retriever {
  readonly pool: PostgresPool;
  #titleWeight: number;
  #embedder: Embedder | undefined;
  #vectors: PostgresVectorIndex;
  #ownsPool = false;
  #closed = false;

  /** Uses `pool`, shared with other stores: `close()` leaves it open. */
  constructor(pool: PostgresPool, options: PostgresRetrieverOptions = {}) {
    this.pool = pool;
    this.#titleWeight = options.titleWeight ?? 2;
    this.#embedder = options.embedder;
    this.#vectors = new PostgresVectorIndex(pool, options.minSimilarity ?? 0.25);
  }

  /** Opens a pool of its own for `url` (`DATABASE_URL`), which `close()` ends. */
  static async connect(
    connection: PostgresPoolOptions,
    options: PostgresRetrieverOptions = {},
  ): Promise<PostgresRetriever> {
    const retriever = new PostgresRetriever(await createPostgresPool(connection), options);
    retriever.#ownsPool = true;
    return retriever;
  }

  async upsertDocument(document: StoredDocument, chunks: Chunk[]): Promise<void> {
    const vectors = this.#embedder
      ? await this.#embedder.embed(chunks.map((chunk) => embeddingTextOf(document.title, chunk)))
      : undefined;
    const dimensions = vectors?.[0]?.length;
    await withTransaction(this.pool, async (client) => {
      if (dimensions !== undefined) await this.#vectors.checkDimensions(client, dimensions);
      await writeDocument(client, document, chunks, vectors);
    });
    // Best effort: pgvector is only a faster path, and searching retries the set-up.
    if (dimensions !== undefined) await this.#vectors.usesPgvector().catch(() => false);
  }

  async deleteDocument(id: string): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query('DELETE FROM kb_documents WHERE id = $1', [id]);
      return (rowCount ?? 0) > 0;
    });
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const { rows } = await queryPostgres<PostgresDocumentRow>(
      this.pool,
      'SELECT * FROM kb_documents WHERE id = $1',
      [id],
    );
    return rows[0] ? toPostgresDocument(rows[0]) : undefined;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    const { rows } = await queryPostgres<PostgresDocumentRow>(
      this.pool,
      'SELECT * FROM kb_documents ORDER BY updated_at DESC, id',
    );
    return rows.map(toPostgresDocument);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const k = hitCount(options.k);
    const tokens = weightedKeywordTokens(query);
    const limit = this.#embedder ? candidatesPerRanking : k;
    const [keyword, vector] = await Promise.all([
      keywordRanks(this.pool, tokens, this.#titleWeight, limit),
      this.#vectorRanks(query),
    ]);
    const ranked = topRanked(keyword, vector, k);
    if (ranked.length === 0) return [];
    const { rows } = await queryPostgres<HitRow>(this.pool, hitsSql, [
      ranked.map((entry) => entry.rowid),
    ]);
    return hitsInRankOrder(ranked, new Map(rows.map((row) => [Number(row.rowid), row])));
  }

  async #vectorRanks(query: string): Promise<RankedChunk[]> {
    if (this.#embedder === undefined || query.trim() === '') return [];
    if (!(await this.#vectors.hasVectors())) return [];
    const [vector] = await this.#embedder.embed([query]);
    return vector === undefined ? [] : this.#vectors.nearest(vector, candidatesPerRanking);
  }

  /** Ends the pool when the retriever opened it (`connect`); a shared pool stays open. */
  async close(): Promise<void> {
    if (!this.#ownsPool || this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }
}
