import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { getLoadablePath } from 'sqlite-vec';
import type { Embedder } from '../models/index.ts';
import { indexTerms } from './analyzer.ts';
import { documentValues } from './document-values.ts';
import { embeddingTextOf } from './embedding-text.ts';
import { EmbeddingMismatchError } from './errors/embedding-mismatch-error.ts';
import { hitCount, hitsInRankOrder, topRanked } from './fuse-rankings.ts';
import {
  type DocumentRow,
  documentTablesSql,
  inTransaction,
  toDocument,
  upsertDocumentSql,
} from './sqlite-document-rows.ts';
import { SqliteKeywordSearch } from './sqlite-keyword-search.ts';
import type { Chunk, Retriever, SearchHit, SearchOptions, StoredDocument } from './types.ts';

/** How the SQLite retriever opens its database. */
export interface SqliteRetrieverOptions {
  /** The database file (created with its folder), or `:memory:` (default). */
  path?: string;
  /** Weight of title matches against body matches in BM25 (default 2). */
  titleWeight?: number;
  /**
   * Embeds chunks and queries for a vector index beside the keyword index (sqlite-vec);
   * search then fuses both rankings (reciprocal rank fusion). Without it: keywords only.
   */
  embedder?: Embedder;
  /** Vector hits less similar than this (cosine, 0..1) are left out (default 0.25). */
  minSimilarity?: number;
}

const schemaSql = `${documentTablesSql}
CREATE VIRTUAL TABLE IF NOT EXISTS kb_terms USING fts5(
  title, body, content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

interface Statements {
  upsertDocument: StatementSync;
  chunkRowids: StatementSync;
  deleteTerms: StatementSync;
  deleteChunks: StatementSync;
  deleteDocument: StatementSync;
  insertChunk: StatementSync;
  insertTerms: StatementSync;
  getDocument: StatementSync;
  listDocuments: StatementSync;
  rowsByRowid: StatementSync;
  getMeta: StatementSync;
  setMeta: StatementSync;
}

interface HitRow {
  rowid: number;
  chunk_id: string;
  document_id: string;
  heading: string;
  text: string;
  title: string;
  metadata_json: string;
}

/** How many candidates each ranking contributes before fusion. */
const candidatesPerRanking = 50;

/**
 * The embedded knowledge index: documents and chunks in SQLite tables, their terms in
 * an FTS5 index ranked by BM25 with per-term weights (`SqliteKeywordSearch`). Keyword-only;
 * vectors live beside it when configured.
 */
export class SqliteRetriever implements Retriever {
  readonly database: DatabaseSync;
  #statements: Statements;
  #keywords: SqliteKeywordSearch;
  #embedder: Embedder | undefined;
  #vectorDimensions: number | undefined;
  /** Statements on the vector table, prepared once it exists. */
  #vectors: { insert: StatementSync; remove: StatementSync; nearest: StatementSync } | undefined;
  #minSimilarity: number;

  constructor(options: SqliteRetrieverOptions = {}) {
    const path = options.path ?? ':memory:';
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#embedder = options.embedder;
    this.#minSimilarity = options.minSimilarity ?? 0.25;
    this.database = new DatabaseSync(path, { allowExtension: this.#embedder !== undefined });
    if (this.#embedder) this.database.loadExtension(getLoadablePath());
    this.database.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;',
    );
    this.database.exec(schemaSql);
    const prepare = (sql: string): StatementSync => this.database.prepare(sql);
    this.#statements = {
      upsertDocument: prepare(upsertDocumentSql),
      chunkRowids: prepare('SELECT rowid FROM kb_chunks WHERE document_id = ?'),
      deleteTerms: prepare('DELETE FROM kb_terms WHERE rowid = ?'),
      deleteChunks: prepare('DELETE FROM kb_chunks WHERE document_id = ?'),
      deleteDocument: prepare('DELETE FROM kb_documents WHERE id = ?'),
      insertChunk: prepare(
        'INSERT INTO kb_chunks (id, document_id, position, heading, text, token_count) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertTerms: prepare('INSERT INTO kb_terms (rowid, title, body) VALUES (?, ?, ?)'),
      getDocument: prepare('SELECT * FROM kb_documents WHERE id = ?'),
      listDocuments: prepare('SELECT * FROM kb_documents ORDER BY updated_at DESC, id'),
      rowsByRowid: prepare(
        `SELECT c.rowid, c.id AS chunk_id, c.document_id, c.heading, c.text, d.title, d.metadata_json
         FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
         WHERE c.rowid IN (SELECT value FROM json_each(?))`,
      ),
      getMeta: prepare('SELECT value FROM kb_meta WHERE key = ?'),
      setMeta: prepare('INSERT OR REPLACE INTO kb_meta (key, value) VALUES (?, ?)'),
    };
    this.#keywords = new SqliteKeywordSearch(this.database, options.titleWeight ?? 2);
    this.#rebuildKeywordsIfIncomplete();
    const stored = this.#statements.getMeta.get('vector_dimensions') as
      | { value: string }
      | undefined;
    this.#vectorDimensions = stored ? Number(stored.value) : undefined;
    if (this.#vectorDimensions !== undefined && this.#embedder) this.#prepareVectors();
  }

  async upsertDocument(document: StoredDocument, chunks: Chunk[]): Promise<void> {
    const vectors = this.#embedder
      ? await this.#embedder.embed(chunks.map((chunk) => embeddingTextOf(document.title, chunk)))
      : undefined;
    if (vectors?.[0]) this.#ensureVectorTable(vectors[0].length);
    inTransaction(this.database, () => {
      this.#removeChunks(document.id);
      const s = this.#statements;
      s.upsertDocument.run(...documentValues(document, chunks.length));
      const titleTerms = indexTerms(document.title).join(' ');
      for (const [index, chunk] of chunks.entries()) {
        const { lastInsertRowid } = s.insertChunk.run(
          chunk.id,
          chunk.documentId,
          chunk.position,
          chunk.heading,
          chunk.text,
          chunk.tokenCount,
        ) as { lastInsertRowid: number | bigint };
        s.insertTerms.run(
          lastInsertRowid,
          titleTerms,
          indexTerms(`${chunk.heading}\n${chunk.text}`).join(' '),
        );
        const vector = vectors?.[index];
        if (vector) this.#insertVector(BigInt(lastInsertRowid), vector);
      }
    });
  }

  async deleteDocument(id: string): Promise<boolean> {
    let existed = false;
    inTransaction(this.database, () => {
      this.#removeChunks(id);
      existed = Number(this.#statements.deleteDocument.run(id).changes) > 0;
    });
    return existed;
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const row = this.#statements.getDocument.get(id) as DocumentRow | undefined;
    return row ? toDocument(row) : undefined;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    return (this.#statements.listDocuments.all() as unknown as DocumentRow[]).map(toDocument);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const k = hitCount(options.k);
    // With vectors the keyword ranking is fused by rank: only its top k (at least its pool)
    // are scored again.
    const keyword = this.#keywords.ranks(query, this.#embedder ? candidatesPerRanking : k, k);
    const vector = this.#embedder && this.#vectors ? await this.#vectorRanks(query) : [];
    const ranked = topRanked(keyword, vector, k);
    if (ranked.length === 0) return [];
    const rows = this.#statements.rowsByRowid.all(
      JSON.stringify(ranked.map((entry) => entry.rowid)),
    ) as unknown as HitRow[];
    return hitsInRankOrder(
      ranked,
      new Map(
        rows.map((row) => [
          row.rowid,
          { ...row, metadata: JSON.parse(row.metadata_json) as Record<string, unknown> },
        ]),
      ),
    );
  }

  /**
   * A SqliteDocumentStore (the OpenSearch backend's store) writes chunks without keyword
   * terms and flags it; switching back to this retriever re-indexes every chunk's terms.
   */
  #rebuildKeywordsIfIncomplete(): void {
    const flag = this.#statements.getMeta.get('keyword_index_incomplete');
    if (flag === undefined) return;
    inTransaction(this.database, () => {
      this.database.exec("INSERT INTO kb_terms (kb_terms) VALUES ('delete-all')");
      const rows = this.database
        .prepare(
          `SELECT c.rowid, c.heading, c.text, d.title FROM kb_chunks c
           JOIN kb_documents d ON d.id = c.document_id`,
        )
        .all() as Array<{ rowid: number; heading: string; text: string; title: string }>;
      for (const row of rows) {
        this.#statements.insertTerms.run(
          row.rowid,
          indexTerms(row.title).join(' '),
          indexTerms(`${row.heading}\n${row.text}`).join(' '),
        );
      }
      this.database.prepare("DELETE FROM kb_meta WHERE key = 'keyword_index_incomplete'").run();
    });
  }

  async #vectorRanks(query: string): Promise<Array<{ rowid: number; score: number }>> {
    if (query.trim() === '') return [];
    const [vector] = await (this.#embedder as Embedder).embed([query]);
    if (vector === undefined) return [];
    const rows = (this.#vectors as { nearest: StatementSync }).nearest.all(
      new Float32Array(vector),
      candidatesPerRanking,
    ) as Array<{
      rowid: number;
      distance: number;
    }>;
    // Nearest neighbours exist for any query; only reasonably similar ones count.
    return rows
      .map((row) => ({ rowid: row.rowid, score: 1 - row.distance }))
      .filter((row) => row.score >= this.#minSimilarity);
  }

  #ensureVectorTable(dimensions: number): void {
    if (this.#vectorDimensions !== undefined) {
      if (this.#vectorDimensions !== dimensions) {
        throw new EmbeddingMismatchError({ stored: this.#vectorDimensions, given: dimensions });
      }
      return;
    }
    this.database.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS kb_vectors USING vec0(embedding float[${dimensions}] distance_metric=cosine)`,
    );
    this.#statements.setMeta.run('vector_dimensions', String(dimensions));
    this.#vectorDimensions = dimensions;
    this.#prepareVectors();
  }

  #prepareVectors(): void {
    this.#vectors = {
      insert: this.database.prepare('INSERT INTO kb_vectors (rowid, embedding) VALUES (?, ?)'),
      remove: this.database.prepare('DELETE FROM kb_vectors WHERE rowid = ?'),
      nearest: this.database.prepare(
        'SELECT rowid, distance FROM kb_vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance',
      ),
    };
  }

  #insertVector(rowid: bigint, vector: number[]): void {
    this.#vectors?.insert.run(rowid, new Float32Array(vector));
  }

  async close(): Promise<void> {
    if (this.database.isOpen) this.database.close();
  }

  #removeChunks(documentId: string): void {
    const s = this.#statements;
    const deleteVector = this.#vectors?.remove;
    for (const row of s.chunkRowids.all(documentId) as Array<{ rowid: number }>) {
      s.deleteTerms.run(row.rowid);
      deleteVector?.run(BigInt(row.rowid));
    }
    s.deleteChunks.run(documentId);
  }
}
