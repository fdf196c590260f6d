import { type PostgresPool, queryPostgres, withTransaction } from '../core/index.ts';
import { prefixRange } from './memory-names.ts';
import {
  type MemoryRow,
  type MemoryRows,
  type MemoryRowWrite,
  type MemoryTermMatch,
  vectorBytes,
  vectorOfBytes,
} from './memory-rows.ts';

/** Whole-segment prefix match on `$1..$3` (nulls for no prefix); `COLLATE "C"` orders by bytes. */
const underPrefix =
  '($1::text IS NULL OR i.namespace = $1 OR (i.namespace >= $2 AND i.namespace < $3))';
const rowColumns = 'i.id, i.namespace, i.key, i.value, i.updated_at';

interface RowRecord extends Record<string, unknown> {
  id: string;
  namespace: string;
  key: string;
  value: string;
  updated_at: string;
}

function rowOf(record: RowRecord): MemoryRow {
  return {
    id: Number(record.id),
    namespace: record.namespace,
    key: record.key,
    value: record.value,
    updatedAt: Number(record.updated_at),
  };
}

/**
 * The memory store's rows in PostgreSQL (`memory_items`, `memory_terms`, from
 * `memoryMigrations`), shared by every instance on the database.
 */
export class PostgresMemoryRows implements MemoryRows {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async upsert(write: MemoryRowWrite): Promise<void> {
    await withTransaction(this.#pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO memory_items (owner, namespace, key, value, updated_at, token_count, embedding)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (owner, namespace, key) DO UPDATE SET value = excluded.value,
           updated_at = excluded.updated_at, token_count = excluded.token_count,
           embedding = excluded.embedding
         RETURNING id`,
        [
          write.owner,
          write.namespace,
          write.key,
          write.value,
          write.updatedAt,
          write.tokenCount,
          write.embedding ? Buffer.from(vectorBytes(write.embedding)) : null,
        ],
      );
      const id = rows[0]?.id as string;
      await client.query('DELETE FROM memory_terms WHERE item_id = $1', [id]);
      if (write.terms.size === 0) return;
      await client.query(
        `INSERT INTO memory_terms (owner, token, item_id, count)
         SELECT $1, token, $2, count FROM unnest($3::text[], $4::integer[]) AS t (token, count)`,
        [write.owner, id, [...write.terms.keys()], [...write.terms.values()]],
      );
    });
  }

  async get(owner: string, namespace: string, key: string): Promise<MemoryRow | undefined> {
    const { rows } = await queryPostgres<RowRecord>(
      this.#pool,
      `SELECT ${rowColumns} FROM memory_items i WHERE i.owner = $1 AND i.namespace = $2 AND i.key = $3`,
      [owner, namespace, key],
    );
    return rows[0] && rowOf(rows[0]);
  }

  async delete(owner: string, namespace: string, key: string): Promise<boolean> {
    const { rowCount } = await queryPostgres(
      this.#pool,
      'DELETE FROM memory_items WHERE owner = $1 AND namespace = $2 AND key = $3',
      [owner, namespace, key],
    );
    return rowCount > 0;
  }

  async recent(owner: string, prefix: string | undefined, limit: number): Promise<MemoryRow[]> {
    const { rows } = await queryPostgres<RowRecord>(
      this.#pool,
      `SELECT ${rowColumns} FROM memory_items i WHERE i.owner = $4 AND ${underPrefix}
       ORDER BY i.updated_at DESC, i.id DESC LIMIT $5`,
      [...prefixRange(prefix), owner, limit],
    );
    return rows.map(rowOf);
  }

  async termMatches(
    owner: string,
    prefix: string | undefined,
    tokens: readonly string[],
  ): Promise<MemoryTermMatch[]> {
    const { rows } = await queryPostgres<{
      id: string;
      token: string;
      count: number;
      token_count: number;
    }>(
      this.#pool,
      `SELECT t.item_id AS id, t.token, t.count, i.token_count
       FROM memory_terms t JOIN memory_items i ON i.id = t.item_id
       WHERE t.owner = $4 AND t.token = ANY($5::text[]) AND ${underPrefix}`,
      [...prefixRange(prefix), owner, tokens],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      token: row.token,
      count: row.count,
      tokenCount: row.token_count,
    }));
  }

  async itemsWith(owner: string, tokens: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await queryPostgres<{ token: string; items: string }>(
      this.#pool,
      `SELECT token, count(*) AS items FROM memory_terms
       WHERE owner = $1 AND token = ANY($2::text[]) GROUP BY token`,
      [owner, tokens],
    );
    return new Map(rows.map((row) => [row.token, Number(row.items)]));
  }

  async totals(owner: string): Promise<{ items: number; tokens: number }> {
    const { rows } = await queryPostgres<{ items: string; tokens: string }>(
      this.#pool,
      'SELECT count(*) AS items, coalesce(sum(token_count), 0) AS tokens FROM memory_items WHERE owner = $1',
      [owner],
    );
    return { items: Number(rows[0]?.items ?? 0), tokens: Number(rows[0]?.tokens ?? 0) };
  }

  async byIds(owner: string, ids: readonly number[]): Promise<MemoryRow[]> {
    const { rows } = await queryPostgres<RowRecord>(
      this.#pool,
      `SELECT ${rowColumns} FROM memory_items i WHERE i.owner = $1 AND i.id = ANY($2::bigint[])`,
      [owner, ids],
    );
    return rows.map(rowOf);
  }

  async vectors(owner: string, prefix: string | undefined) {
    const { rows } = await queryPostgres<{ id: string; embedding: Buffer }>(
      this.#pool,
      `SELECT i.id, i.embedding FROM memory_items i
       WHERE i.owner = $4 AND i.embedding IS NOT NULL AND ${underPrefix}`,
      [...prefixRange(prefix), owner],
    );
    return rows.map((record) => ({
      id: Number(record.id),
      embedding: vectorOfBytes(record.embedding),
    }));
  }

  async close(): Promise<void> {
    // The pool belongs to whoever opened it.
  }
}
