import { fuseRankings, weightedBm25OfCounts, weightedKeywordTokens } from '../knowledge/index.ts';
import type { Embedder } from '../models/index.ts';
import { checkMemoryNames, memoryLimit, memoryValueText } from './memory-names.ts';
import type { MemoryRow, MemoryRows } from './memory-rows.ts';
import { cosine, countTokens, memorySearchText, memoryTokens } from './memory-text.ts';
import type { MemoryItem, MemoryQuery, MemoryStore } from './types.ts';

/** How many of each ranking (at least) go into the fusion of keyword and vector results. */
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
    const best =
      vector === undefined
        ? keyword.slice(0, limit)
        : fuseRankings([keyword, vector].map((ranking) => ranking.map(({ id }) => ({ rowid: id }))))
            .slice(0, limit)
            .map(({ rowid, score }) => ({ id: rowid, score }));
    // Only the items returned are read.
    const rows = new Map(
      (
        await this.#rows.byIds(
          owner,
          best.map((entry) => entry.id),
        )
      ).map((row) => [row.id, row]),
    );
    return best.flatMap(({ id, score }) => {
      const row = rows.get(id);
      return row ? [{ ...itemOf(row), score }] : [];
    });
  }

  close(): Promise<void> {
    return this.#rows.close();
  }

  /**
   * The owner's items matching the query's keywords, best first: BM25 over the owner's
   * items, from the token counts stored with each item (nothing is analysed again).
   */
  async #keywordRanking(owner: string, prefix: string | undefined, text: string, limit: number) {
    const weighted = weightedKeywordTokens(text);
    const tokens = [...new Set(weighted.map(({ token }) => token))];
    if (tokens.length === 0) return [];
    const totals = await this.#rows.totals(owner);
    const itemsWith = await this.#rows.itemsWith(owner, tokens);
    // A token in more than half the owner's items scores (almost) nothing in BM25 (its IDF
    // is at the floor): its matches are read only when the rarer tokens find too few items.
    const found = tokens.filter((token) => itemsWith.has(token));
    const rare = found.filter((token) => (itemsWith.get(token) ?? 0) * 2 <= totals.items);
    const common = found.filter((token) => !rare.includes(token));
    const items = new Map<number, { frequencies: Map<string, number>; length: number }>();
    const read = async (some: string[]) => {
      if (some.length === 0) return;
      for (const match of await this.#rows.termMatches(owner, prefix, some)) {
        const item = items.get(match.id) ?? { frequencies: new Map(), length: match.tokenCount };
        item.frequencies.set(match.token, match.count);
        items.set(match.id, item);
      }
    };
    await read(rare);
    if (items.size < limit) await read(common);
    if (items.size === 0) return [];
    const statistics = {
      chunks: Math.max(totals.items, 1),
      averageLength: totals.items > 0 ? Math.max(totals.tokens / totals.items, 1) : 1,
      chunksWith: itemsWith,
    };
    return [...items]
      .map(([id, item]) => ({
        id,
        score: weightedBm25OfCounts(weighted, statistics, item.frequencies, item.length),
      }))
      .sort((left, right) => right.score - left.score || right.id - left.id)
      .slice(0, Math.max(limit, candidatePool));
  }

  /** The owner's items nearest the query's vector, best first; undefined without an embedder. */
  async #vectorRanking(owner: string, prefix: string | undefined, text: string, limit: number) {
    const query = await this.#embed(text);
    if (query === undefined) return undefined;
    return (await this.#rows.vectors(owner, prefix))
      .map(({ id, embedding }) => ({ id, score: cosine(query, embedding) }))
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
