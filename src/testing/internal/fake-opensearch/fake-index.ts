import { randomUUID } from 'node:crypto';
import type { AnalysisSettings } from './analysis.ts';
import { type FieldStatistics, fieldTermsOf, statisticsOf } from './bm25.ts';
import { allowKeys, FakeOpenSearchError } from './fake-errors.ts';
import { checkSource, type IndexMappings, parseMappings } from './mapping.ts';
import { compileQuery, type IndexedEntry, knnQueryOf, type QueryContext } from './query-dsl.ts';

/** A stored document: its kept `_source`, version and indexed fields. */
interface StoredEntry extends IndexedEntry {
  source: Record<string, unknown>;
  version: number;
}

/** The result of one write, as a `_bulk` item reports it. */
export interface WriteResult {
  status: number;
  result?: 'created' | 'updated' | 'deleted' | 'not_found';
  version?: number;
}

const settingKeys = ['index.knn', 'index.number_of_shards', 'index.number_of_replicas'];

/** Flattens settings to dotted keys (`{index: {knn: true}}` → `index.knn`), keeping `analysis` whole. */
function flattenSettings(value: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [key, child] of Object.entries(value)) {
    const path =
      prefix === '' && !key.startsWith('index.') && key !== 'index'
        ? `index.${key}`
        : `${prefix}${key}`;
    if (path === 'index.analysis' || typeof child !== 'object' || child === null)
      flat.set(path, child);
    else
      for (const [inner, leaf] of flattenSettings(child as Record<string, unknown>, `${path}.`))
        flat.set(inner, leaf);
  }
  return flat;
}

/**
 * One index of the fake: mappings checked on every write, near-real-time visibility (a
 * write is searchable after a refresh, as in OpenSearch), versions (internal and
 * external), BM25 and exact k-NN search over the searchable copy.
 */
export class FakeIndex {
  readonly name: string;
  readonly uuid = randomUUID().replaceAll('-', '').slice(0, 22);
  readonly created = Date.now();
  readonly aliases = new Set<string>();
  readonly mappings: IndexMappings;
  #settings: Map<string, unknown>;
  #mappingsBody: unknown;
  #live = new Map<string, StoredEntry>();
  #searchable = new Map<string, StoredEntry>();
  #statistics = new Map<string, FieldStatistics>();

  constructor(name: string, settings: unknown, mappings: unknown, plugins: Set<string>) {
    this.name = name;
    this.#settings = flattenSettings(
      allowKeys(settings ?? {}, Object.keys(settings ?? {}), 'settings'),
    );
    for (const key of this.#settings.keys()) {
      const known = settingKeys.includes(key) || key === 'index.analysis';
      if (!known || (key === 'index.knn' && !plugins.has('opensearch-knn')))
        throw new FakeOpenSearchError(
          400,
          'illegal_argument_exception',
          `unknown setting [${key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
        );
    }
    const analysis = allowKeys(
      this.#settings.get('index.analysis') ?? {},
      ['analyzer', 'char_filter', 'filter', 'tokenizer'],
      'index.analysis',
    );
    this.mappings = parseMappings(mappings, analysis as AnalysisSettings, plugins);
    this.#mappingsBody = structuredClone(mappings ?? {});
  }

  /** How many documents a search would see. */
  get searchableCount(): number {
    return this.#searchable.size;
  }

  /** `GET /<index>`'s entry: aliases, mappings as given, settings with OpenSearch's string values. */
  describe(): Record<string, unknown> {
    const index: Record<string, unknown> = {
      number_of_shards: String(this.#settings.get('index.number_of_shards') ?? 1),
      number_of_replicas: String(this.#settings.get('index.number_of_replicas') ?? 1),
      provided_name: this.name,
      creation_date: String(this.created),
      uuid: this.uuid,
      version: { created: '136407827' },
    };
    if (this.#settings.has('index.knn')) index.knn = String(this.#settings.get('index.knn'));
    if (this.#settings.has('index.analysis')) index.analysis = this.#settings.get('index.analysis');
    return {
      aliases: Object.fromEntries([...this.aliases].map((alias) => [alias, {}])),
      mappings: structuredClone(this.#mappingsBody),
      settings: { index },
    };
  }

  /** Indexes a document (checked against the mappings; external versions must grow). */
  put(
    id: string,
    source: Record<string, unknown>,
    version?: number,
    external = false,
  ): WriteResult {
    checkSource(id, source, this.mappings);
    const existing = this.#live.get(id);
    if (external && existing && existing.version >= (version as number)) {
      throw new FakeOpenSearchError(
        409,
        'version_conflict_engine_exception',
        `[${id}]: version conflict, current version [${existing.version}] is higher or equal to the one provided [${version}]`,
        { index: this.name, shard: '0', index_uuid: this.uuid },
      );
    }
    const entry: StoredEntry = {
      id,
      source: Object.fromEntries(
        Object.entries(source).filter(([key]) => !this.mappings.sourceExcludes.has(key)),
      ),
      version: external ? (version as number) : (existing?.version ?? 0) + 1,
      text: new Map(),
      values: new Map(),
      vectors: new Map(),
    };
    for (const [name, value] of Object.entries(source)) {
      const field = this.mappings.fields.get(name);
      if (field?.type === 'text' && field.indexed)
        entry.text.set(name, fieldTermsOf(field.analyzer(String(value))));
      else if (field?.type === 'knn_vector') entry.vectors.set(name, value as number[]);
      else if (field && field.type !== 'object' && field.type !== 'text')
        entry.values.set(name, value);
    }
    this.#live.set(id, entry);
    return {
      status: existing ? 200 : 201,
      result: existing ? 'updated' : 'created',
      version: entry.version,
    };
  }

  /** Deletes a document by id. */
  remove(id: string): WriteResult {
    const existing = this.#live.get(id);
    this.#live.delete(id);
    return existing
      ? { status: 200, result: 'deleted', version: existing.version + 1 }
      : { status: 404, result: 'not_found', version: 1 };
  }

  /** Makes every write so far searchable. */
  refresh(): void {
    this.#searchable = new Map(this.#live);
    this.#statistics.clear();
  }

  /** `_search` over the searchable copy: hits best first (ties in index order), `size` of them. */
  search(
    body: Record<string, unknown>,
  ): Array<{ id: string; score: number; source: Record<string, unknown> }> {
    const size = Number(body.size ?? 10);
    const query = body.query ?? { match_all: {} };
    const context = this.#context();
    const knn = knnQueryOf(query, context);
    const scored: Array<{ entry: StoredEntry; score: number }> = [];
    if (knn) {
      for (const entry of this.#searchable.values()) {
        const vector = entry.vectors.get(knn.field);
        if (vector) scored.push({ entry, score: this.#vectorScore(knn.field, knn.vector, vector) });
      }
      scored.sort((a, b) => b.score - a.score);
      scored.length = Math.min(scored.length, knn.k);
    } else {
      const matcher = compileQuery(query, context, true);
      for (const entry of this.#searchable.values()) {
        const score = matcher(entry);
        if (score !== undefined) scored.push({ entry, score });
      }
      scored.sort((a, b) => b.score - a.score);
    }
    return scored
      .slice(0, size)
      .map(({ entry, score }) => ({ id: entry.id, score, source: entry.source }));
  }

  /** `_delete_by_query`: deletes what a search sees now (writes not yet refreshed stay). */
  deleteByQuery(query: unknown): number {
    const matcher = compileQuery(query, this.#context(), false);
    const doomed = [...this.#searchable.values()].filter((entry) => matcher(entry) !== undefined);
    for (const entry of doomed) {
      if (this.#live.get(entry.id) === entry) this.#live.delete(entry.id);
    }
    return doomed.length;
  }

  #vectorScore(field: string, query: number[], vector: number[]): number {
    const mapping = this.mappings.fields.get(field);
    if (mapping?.type === 'knn_vector' && mapping.space === 'l2') {
      const distance = query.reduce(
        (sum, value, index) => sum + (value - (vector[index] ?? 0)) ** 2,
        0,
      );
      return 1 / (1 + distance);
    }
    const dot = query.reduce((sum, value, index) => sum + value * (vector[index] ?? 0), 0);
    const norms = Math.hypot(...query) * Math.hypot(...vector);
    const cosine = norms === 0 ? 0 : dot / norms;
    return (2 - (1 - cosine)) / 2;
  }

  #context(): QueryContext {
    return {
      field: (name) => this.mappings.fields.get(name),
      statistics: (name) => {
        let statistics = this.#statistics.get(name);
        if (statistics === undefined) {
          statistics = statisticsOf(
            [...this.#searchable.values()].map((entry) => entry.text.get(name)),
          );
          this.#statistics.set(name, statistics);
        }
        return statistics;
      },
    };
  }
}
