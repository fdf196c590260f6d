import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { indexTerms, weightedQueryTerms } from './analyzer.ts';
import { keywordTokens } from './keyword-tokens.ts';
import { type Bm25Statistics, weightedBm25, withTokens } from './weighted-bm25.ts';

/** A chunk's place in a ranking: its rowid and score (higher is better). */
export interface RankedRow {
  rowid: number;
  score: number;
}

/**
 * How many chunks (at least) FTS5's own bm25() ranking hands to the weighted re-scoring.
 * The weights reorder the best few: on the three bench corpora, re-scoring the first 10
 * gives the same recall@1 and recall@5 as re-scoring the first 100, at a fraction of the
 * cost (each candidate's text is analysed again).
 */
const candidatePool = 10;

/**
 * Keyword search over the FTS5 index `kb_terms`: FTS5 finds and ranks candidates with its
 * bm25(), then the best `candidatePool` are scored again with per-term weights
 * (`weightedBm25`), from their text and the index's own statistics — the number of rows
 * and tokens FTS5 keeps in its averages record, and each token's row count (fts5vocab).
 */
export class SqliteKeywordSearch {
  #titleWeight: number;
  #candidates: StatementSync;
  #averages: StatementSync;
  #rowsWith: StatementSync;
  #texts: StatementSync;

  constructor(database: DatabaseSync, titleWeight: number) {
    this.#titleWeight = titleWeight;
    // A temp table: read-only statistics of the index, nothing stored in the file.
    database.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.kb_terms_vocabulary USING fts5vocab(main, kb_terms, 'row')",
    );
    this.#candidates = database.prepare(
      'SELECT rowid, -bm25(kb_terms, ?, 1.0) AS score FROM kb_terms WHERE kb_terms MATCH ? ORDER BY bm25(kb_terms, ?, 1.0) LIMIT ?',
    );
    this.#averages = database.prepare('SELECT block FROM kb_terms_data WHERE id = 1');
    this.#rowsWith = database.prepare('SELECT doc FROM temp.kb_terms_vocabulary WHERE term = ?');
    this.#texts = database.prepare(
      `SELECT c.rowid, c.heading, c.text, d.title FROM kb_chunks c
       JOIN kb_documents d ON d.id = c.document_id
       WHERE c.rowid IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * The `limit` best chunks for a query, best first (empty when nothing is worth searching).
   * The first `max(rescored, candidatePool)` of FTS5's ranking are scored again; any more
   * follow them in FTS5's order, with its scores (a fusion reads only their ranks).
   */
  ranks(query: string, limit: number, rescored = limit): RankedRow[] {
    const terms = weightedQueryTerms(query);
    if (terms.length === 0) return [];
    // FTS5 tokenizes (and stems) the terms as it did when indexing. Every term is quoted,
    // so nothing a user types is read as FTS5 syntax.
    const match = terms.map(({ term }) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
    const weighted = withTokens(terms);
    const candidates = this.#candidates.all(
      this.#titleWeight,
      match,
      this.#titleWeight,
      Math.max(limit, candidatePool),
    ) as unknown as RankedRow[];
    const statistics = candidates.length > 0 ? this.#statistics(weighted) : undefined;
    if (statistics === undefined) return candidates.slice(0, limit);
    const poolSize = Math.max(rescored, candidatePool);
    const pool = candidates.slice(0, poolSize);
    const rows = this.#texts.all(JSON.stringify(pool.map((entry) => entry.rowid))) as Array<{
      rowid: number;
      heading: string;
      text: string;
      title: string;
    }>;
    // Chunks of one document share its title: its tokens are worked out once.
    const titleTokens = new Map<string, string[]>();
    const rescoredRows = rows
      .map((row) => {
        let tokens = titleTokens.get(row.title);
        if (tokens === undefined) {
          tokens = keywordTokens(indexTerms(row.title));
          titleTokens.set(row.title, tokens);
        }
        return {
          rowid: row.rowid,
          score: weightedBm25(
            weighted,
            statistics,
            {
              titleTokens: tokens,
              bodyTokens: keywordTokens(indexTerms(`${row.heading}\n${row.text}`)),
            },
            this.#titleWeight,
          ),
        };
      })
      .sort((left, right) => right.score - left.score || left.rowid - right.rowid);
    return [...rescoredRows, ...candidates.slice(poolSize)].slice(0, limit);
  }

  /** The index's row and token counts and each query token's row count; undefined if unreadable. */
  #statistics(weighted: ReadonlyArray<{ token: string }>): Bm25Statistics | undefined {
    const record = this.#averages.get() as { block: Uint8Array } | undefined;
    const totals = record ? readVarints(record.block) : [];
    const [chunks = 0, ...columnTokens] = totals;
    if (chunks <= 0 || columnTokens.length === 0) return undefined;
    const tokens = columnTokens.reduce((sum, count) => sum + count, 0);
    const chunksWith = new Map<string, number>();
    for (const { token } of weighted) {
      if (chunksWith.has(token)) continue;
      const row = this.#rowsWith.get(token) as { doc: number } | undefined;
      chunksWith.set(token, row?.doc ?? 0);
    }
    return { chunks, averageLength: tokens / chunks, chunksWith };
  }
}

/**
 * The SQLite varints of FTS5's averages record: the row count, then each column's token
 * total (big-endian groups of 7 bits, the high bit saying another byte follows; a ninth
 * byte carries 8 bits).
 */
function readVarints(bytes: Uint8Array): number[] {
  const values: number[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    let value = 0;
    let index = 0;
    for (; index < 9 && offset < bytes.length; index += 1) {
      const byte = bytes[offset] as number;
      offset += 1;
      if (index === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    values.push(value);
  }
  return values;
}
