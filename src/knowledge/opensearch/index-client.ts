import type { Client } from '@opensearch-project/opensearch';
import { SearchUnavailableError } from '../errors/search-unavailable-error.ts';
import { responseErrorOf } from './cluster-errors.ts';
import type { IndexDefinition } from './index-definition.ts';

/** One item of a `_bulk` response. */
export interface BulkItemResult {
  _id: string;
  status: number;
  error?: { type?: string; reason?: string };
}

/** A hit of `_search`, with the `_source` fields asked for. */
export interface SearchResponseHit {
  _id: string;
  _score: number;
  _source?: Record<string, unknown>;
}

/** What `GET /<alias>` says of one concrete index behind it. */
export interface ConcreteIndex {
  name: string;
  mappings: { _meta?: { yeoul?: unknown } } & Record<string, unknown>;
}

/**
 * Exactly the requests Yeoul makes to OpenSearch, through the official client: one place
 * to read what goes over the wire (the fake in src/testing implements these and no more).
 */
export class IndexClient {
  readonly client: Client;

  constructor(client: Client) {
    this.client = client;
  }

  /** `GET /_cat/plugins?format=json`: the plugin components installed on any node. */
  async plugins(): Promise<Set<string>> {
    const response = await this.client.cat.plugins({ format: 'json' });
    const rows = response.body as unknown as Array<{ component?: string }>;
    return new Set(rows.map((row) => row.component ?? ''));
  }

  /** `GET /_cluster/health/<target>?timeout=5s`: green, yellow or red; `missing` when there is no such index. */
  async health(target: string): Promise<string> {
    try {
      const response = await this.client.cluster.health({ index: target, timeout: '5s' });
      return String((response.body as { status?: string }).status);
    } catch (error) {
      // For an index that does not exist, OpenSearch waits out the timeout and answers 408.
      const meta = (error as { meta?: { statusCode?: number; body?: { timed_out?: boolean } } })
        .meta;
      if (meta?.statusCode === 408 && meta.body?.timed_out) return 'missing';
      throw error;
    }
  }

  /** `GET /_alias/<alias>`: the concrete indexes behind an alias (none when it is missing). */
  async aliasTargets(alias: string): Promise<string[]> {
    try {
      const response = await this.client.indices.getAlias({ name: alias });
      return Object.keys(response.body as Record<string, unknown>).sort();
    } catch (error) {
      if (responseErrorOf(error)?.status === 404) return [];
      throw error;
    }
  }

  /** `GET /<index>`: mappings of each concrete index an alias or name resolves to. */
  async describe(target: string): Promise<ConcreteIndex[]> {
    const response = await this.client.indices.get({ index: target });
    return Object.entries(response.body as Record<string, { mappings: ConcreteIndex['mappings'] }>)
      .map(([name, value]) => ({ name, mappings: value.mappings }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** `PUT /<index>` with settings, mappings and, when given, the alias pointing at it. */
  async create(index: string, definition: IndexDefinition, alias?: string): Promise<void> {
    const body = { ...definition, ...(alias ? { aliases: { [alias]: {} } } : {}) };
    await this.client.indices.create({ index, body: body as never });
  }

  /** `POST /_aliases`: points the alias at `index` and removes the indexes it pointed at, atomically. */
  async moveAlias(alias: string, index: string, previous: string[]): Promise<void> {
    const actions = [
      { add: { index, alias } },
      ...previous.map((old) => ({ remove_index: { index: old } })),
    ];
    await this.client.indices.updateAliases({ body: { actions } as never });
  }

  /** `PUT /<target>/_bulk` with NDJSON lines; per-item results in order. */
  async bulk(
    target: string,
    lines: unknown[],
    options: { refresh: 'wait_for' | 'false'; requireAlias: boolean },
  ): Promise<BulkItemResult[]> {
    const response = await this.client.bulk({
      index: target,
      body: lines as never,
      refresh: options.refresh,
      ...(options.requireAlias ? { require_alias: true } : {}),
    });
    const items = (response.body as { items: Array<Record<string, BulkItemResult>> }).items;
    return items.map((item) => Object.values(item)[0] as BulkItemResult);
  }

  /** `POST /<target>/_search`: hits best first. */
  async search(target: string, body: Record<string, unknown>): Promise<SearchResponseHit[]> {
    const response = await this.client.search({ index: target, body: body as never });
    const result = response.body as {
      hits: { hits: SearchResponseHit[] };
      _shards?: { failed?: number };
    };
    const failed = result._shards?.failed ?? 0;
    // Partial results could miss the passage that answers: an honest failure is better.
    if (failed > 0)
      throw new SearchUnavailableError({
        backend: 'opensearch',
        reason: `${failed} shards failed`,
      });
    return result.hits.hits;
  }

  /** `POST /<target>/_delete_by_query?refresh=true&conflicts=proceed`: how many entries went. */
  async deleteByQuery(target: string, query: Record<string, unknown>): Promise<number> {
    const response = await this.client.deleteByQuery({
      index: target,
      body: { query } as never,
      refresh: true,
      conflicts: 'proceed',
    });
    return Number((response.body as { deleted?: number }).deleted ?? 0);
  }

  /** `DELETE /<index>`: removes an index Yeoul made (a rebuild that could not finish). */
  async remove(index: string): Promise<void> {
    await this.client.indices.delete({ index });
  }

  /** `POST /<index>/_refresh`: makes every write so far searchable. */
  async refresh(index: string): Promise<void> {
    await this.client.indices.refresh({ index });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
