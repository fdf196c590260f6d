import {
  isConnectionFailure,
  type PostgresClient,
  type PostgresPool,
  queryPostgres,
  withTransaction,
} from '../core/index.ts';
import { EmbeddingMismatchError } from './errors/embedding-mismatch-error.ts';
import type { RankedChunk } from './postgres-keyword-index.ts';

/** A vector as a PostgreSQL `real[]` literal, for `unnest($n::text[])::real[]`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `{${vector.join(',')}}`;
}

const exactSql = `
SELECT rowid, similarity FROM (
  SELECT chunks.rowid,
    (SELECT sum(pair.stored::float8 * pair.query)
     FROM unnest(chunks.embedding, $1::float8[]) AS pair (stored, query)) / chunks.embedding_norm
      AS similarity
  FROM kb_chunks AS chunks
  WHERE chunks.embedding_norm > 0
) AS scored
WHERE similarity >= $2
ORDER BY similarity DESC, rowid
LIMIT $3`;

const pgvectorSql = `
SELECT rowid, 1 - (embedding_vector <=> $1::real[]::vector) AS similarity
FROM kb_chunks
WHERE embedding_vector IS NOT NULL
ORDER BY embedding_vector <=> $1::real[]::vector
LIMIT $2`;

/**
 * Vector search over the chunks' `real[]` embeddings: exact cosine similarity computed in
 * SQL, or, when the `vector` extension (pgvector) can be created, a generated `vector`
 * column with an HNSW index. Keeps one embedding size per knowledge base.
 */
export class PostgresVectorIndex {
  #pool: PostgresPool;
  #minSimilarity: number;
  #dimensions: number | undefined;
  /** Whether pgvector serves searches; settled once per process. */
  #pgvector: Promise<boolean> | undefined;

  constructor(pool: PostgresPool, minSimilarity: number) {
    this.#pool = pool;
    this.#minSimilarity = minSimilarity;
  }

  /** Inside a write: records the embedding size on first use, refuses vectors of another size. */
  async checkDimensions(client: PostgresClient, dimensions: number): Promise<void> {
    // The stored size never changes once recorded: a size already seen needs no round trip.
    if (this.#dimensions === dimensions) return;
    await client.query(
      "INSERT INTO kb_meta (key, value) VALUES ('vector_dimensions', $1) ON CONFLICT (key) DO NOTHING",
      [String(dimensions)],
    );
    const { rows } = await client.query<{ value: string }>(
      "SELECT value FROM kb_meta WHERE key = 'vector_dimensions'",
    );
    const stored = Number(rows[0]?.value);
    if (stored !== dimensions) throw new EmbeddingMismatchError({ stored, given: dimensions });
    this.#dimensions = dimensions;
  }

  /** True once any vector is stored (the embedding size is known). */
  async hasVectors(): Promise<boolean> {
    return (this.#dimensions ?? (await this.#storedDimensions())) !== undefined;
  }

  /** The chunks nearest `vector` by cosine similarity, at least the minimum, best first. */
  async nearest(vector: readonly number[], limit: number): Promise<RankedChunk[]> {
    const norm = Math.hypot(...vector);
    if (!(norm > 0)) return [];
    if (await this.usesPgvector()) {
      const { rows } = await queryPostgres<{ rowid: string; similarity: number }>(
        this.#pool,
        pgvectorSql,
        [vectorLiteral(vector), limit],
      );
      return rows
        .map((row) => ({ rowid: Number(row.rowid), score: Number(row.similarity) }))
        .filter((row) => Number.isFinite(row.score) && row.score >= this.#minSimilarity);
    }
    const unit = vector.map((value) => value / norm);
    const { rows } = await queryPostgres<{ rowid: string; similarity: number }>(
      this.#pool,
      exactSql,
      [unit, this.#minSimilarity, limit],
    );
    return rows.map((row) => ({ rowid: Number(row.rowid), score: Number(row.similarity) }));
  }

  /** True once pgvector's column and index serve searches (false: exact cosine in SQL). */
  async usesPgvector(): Promise<boolean> {
    const dimensions = this.#dimensions ?? (await this.#storedDimensions());
    if (dimensions === undefined) return false;
    this.#pgvector ??= this.#preparePgvector(dimensions).catch((error: unknown) => {
      this.#pgvector = undefined; // the database was away: try again next time
      throw error;
    });
    return this.#pgvector;
  }

  async #storedDimensions(): Promise<number | undefined> {
    const { rows } = await queryPostgres<{ value: string }>(
      this.#pool,
      "SELECT value FROM kb_meta WHERE key = 'vector_dimensions'",
    );
    const stored = rows[0] === undefined ? undefined : Number(rows[0].value);
    if (stored !== undefined) this.#dimensions = stored;
    return stored;
  }

  async #preparePgvector(dimensions: number): Promise<boolean> {
    if (!Number.isSafeInteger(dimensions) || dimensions <= 0) return false;
    try {
      await queryPostgres(this.#pool, 'CREATE EXTENSION IF NOT EXISTS vector');
      await withTransaction(this.#pool, async (client) => {
        // One instance adds the column and index; the others wait, then find them there.
        await client.query("SELECT pg_advisory_xact_lock(hashtext('yeoul.kb_vectors'))");
        // The size is this process's own number (checked above), never outside text.
        await client.query(
          `ALTER TABLE kb_chunks ADD COLUMN IF NOT EXISTS embedding_vector vector(${dimensions})
           GENERATED ALWAYS AS (embedding::vector(${dimensions})) STORED`,
        );
        await client.query(
          'CREATE INDEX IF NOT EXISTS kb_chunks_embedding_hnsw ON kb_chunks USING hnsw (embedding_vector vector_cosine_ops)',
        );
      });
      return true;
    } catch (error) {
      if (isConnectionFailure(error)) throw error;
      // No pgvector here (not installed, not permitted, too old, too many dimensions for
      // HNSW): exact cosine over real[] gives the same answers, only slower.
      return false;
    }
  }
}
