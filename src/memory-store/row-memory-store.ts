import { fuseRankings, weightedBm25, weightedKeywordTokens } from '../knowledge/index.ts';
import type { Embedder } from '../models/index.ts';
import { checkMemoryNames, memoryLimit, memoryValueText } from './memory-names.ts';
import type { MemoryRow, MemoryRows } from './memory-rows.ts';
import { cosine, countTokens, memorySearchText, memoryTokens } from './memory-text.ts';
import type { MemoryItem, MemoryQuery, MemoryStore } from './types.ts';

/** How many keyword candidates (at least) are scored again with BM25. */
const candidatePool = 50;

/** Vector hits less similar than this (cosine) are left out, as in the knowledge base. */
const minSimilarity = 0.25;

/**
 * The one `MemoryStore` over any backend's rows: names checked and values bounded before
 * the backend sees them; keyword search with the knowledge base's analysis and BM25 (the
 * owner's own statistics), fused with vector search when an embedder is given.
 */
export class RowMemoryStore implements MemoryStore {
  #rows: MemoryRows;
  #embedder: Embedder | undefined;

  constructor(rows: MemoryRows, options: { embedder?: Embedder | undefined } = {}) {
    this.#rows = rows;
    this.#embedder = options.embedder;
  }

  async put(owner: string, namespace: string, key: string, value: unknown): Promise<MemoryItem> {
    checkMemoryNames({ namespace, key });
    const text = memoryValueText(value);
    const parsed = JSON.parse(text) as unknown;
    const searchText = memorySearchText(namespace, key, parsed);
    const tokens = memoryTokens(searchText);
    const updatedAt = Date.now();
    await this.#rows.upsert({
      owner,
      namespace,
      key,
      value: text,
      updatedAt,
      terms: countTokens(tokens),
      tokenCount: tokens.length,
      embedding: await this.#embed(searchText),
    });
    return { namespace, key, value: parsed, updatedAt: new Date(updatedAt).toISOString() };
  }

  async get(owner: string, namespace: string, key: string): Promise<MemoryItem | undefined> {
    checkMemoryNames({ namespace, key });
    const row = await this.#rows.get(owner, namespace, key);
    return row && itemOf(row);
  }

  async delete(owner: string, namespace: string, key: string): Promise<boolean> {
    checkMemoryNames({ namespace, key });
    return this.#rows.delete(owner, namespace, key);
  }

  async search(owner: string, query: MemoryQuery = {}): Promise<MemoryItem[]> {
    checkMemoryNames(query.prefix === undefined ? {} : { prefix: query.prefix });
    const limit = memoryLimit(query.limit);
    const text = query.query?.trim() ?? '';
    if (text === '') return (await this.#rows.recent(owner, query.prefix, limit)).map(itemOf);
    const keyword = await this.#keywordRanking(owner, query.prefix, text, limit);
    const vector = await this.#vectorRanking(owner, query.prefix, text, limit);
    if (vector === undefined) {
      return keyword.slice(0, limit).map(({ row, score }) => ({ ...itemOf(row), score }));
    }
    const rows = new Map<number, MemoryRow>();
    for (const { row } of [...keyword, ...vector]) rows.set(row.id, row);
    const ranking = (entries: Array<{ row: MemoryRow }>) =>
      entries.map(({ row }) => ({ rowid: row.id }));
    return fuseRankings([ranking(keyword), ranking(vector)])
      .slice(0, limit)
      .map(({ rowid, score }) => ({ ...itemOf(rows.get(rowid) as MemoryRow), score }));
  }

  close(): Promise<void> {
    return this.#rows.close();
  }

  /** The owner's items matching the query's keywords, best first (BM25 over the owner's items). */
  async #keywordRanking(owner: string, prefix: string | undefined, text: string, limit: number) {
    const weighted = weightedKeywordTokens(text);
    const tokens = [...new Set(weighted.map(({ token }) => token))];
    if (tokens.length === 0) return [];
    const candidates = await this.#rows.keywordCandidates(
      owner,
      prefix,
      tokens,
      Math.max(limit, candidatePool),
    );
    if (candidates.length === 0) return [];
    const statistics = await this.#rows.statistics(owner, tokens);
    const bm25 = {
      chunks: Math.max(statistics.items, 1),
      averageLength: statistics.items > 0 ? Math.max(statistics.tokens / statistics.items, 1) : 1,
      chunksWith: statistics.itemsWith,
    };
    return candidates
      .map((row) => {
        const value = JSON.parse(row.value) as unknown;
        const bodyTokens = memoryTokens(memorySearchText(row.namespace, row.key, value));
        return { row, score: weightedBm25(weighted, bm25, { titleTokens: [], bodyTokens }, 1) };
      })
      .sort((left, right) => right.score - left.score || right.row.updatedAt - left.row.updatedAt);
  }

  /** The owner's items nearest the query's vector, best first; undefined without an embedder. */
  async #vectorRanking(owner: string, prefix: string | undefined, text: string, limit: number) {
    const query = await this.#embed(text);
    if (query === undefined) return undefined;
    return (await this.#rows.vectors(owner, prefix))
      .map(({ row, embedding }) => ({ row, score: cosine(query, embedding) }))
      .filter((entry) => entry.score >= minSimilarity)
      .sort((left, right) => right.score - left.score)
      .slice(0, Math.max(limit, candidatePool));
  }

  /** The text's vector, or undefined without an embedder or when it fails (keywords still work). */
  async #embed(text: string): Promise<Float32Array | undefined> {
    if (this.#embedder === undefined) return undefined;
    try {
      const [vector] = await this.#embedder.embed([text]);
      return vector ? Float32Array.from(vector) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The item of a stored row. */
function itemOf(row: MemoryRow): MemoryItem {
  return {
    namespace: row.namespace,
    key: row.key,
    value: JSON.parse(row.value) as unknown,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
