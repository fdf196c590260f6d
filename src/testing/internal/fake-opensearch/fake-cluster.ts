import type { ClusterReply, ClusterRequest } from './cluster-reply.ts';
import type { BulkItem, DocumentCluster } from './document-endpoints.ts';
import * as documents from './document-endpoints.ts';
import { FakeOpenSearchError } from './fake-errors.ts';
import type { FakeIndex } from './fake-index.ts';
import {
  catPlugins,
  clusterHealth,
  createIndex,
  deleteIndex,
  getAlias,
  type IndexCluster,
  updateAliases,
} from './index-endpoints.ts';

/** A failure a test injects into `_bulk` items. */
export interface ItemFailureRule {
  match: (item: BulkItem) => boolean;
  status: number;
  type: string;
  reason: string;
  /** How many items it fails before it stops (default: forever). */
  remaining: number;
}

/**
 * The state and REST routing of a one-node fake cluster: indexes and aliases, plugins,
 * health. Every endpoint checks its query parameters and body keys and refuses what it
 * does not implement, in OpenSearch's error shape.
 */
export class FakeCluster implements DocumentCluster, IndexCluster {
  readonly indexes = new Map<string, FakeIndex>();
  readonly plugins: Set<string>;
  health: 'green' | 'yellow' | 'red' = 'green';
  readonly itemFailures: ItemFailureRule[] = [];

  constructor(plugins: string[]) {
    this.plugins = new Set(plugins);
  }

  resolve(name: string): FakeIndex[] {
    const index = this.indexes.get(name);
    if (index) return [index];
    return [...this.indexes.values()].filter((candidate) => candidate.aliases.has(name));
  }

  isAlias(name: string): boolean {
    return !this.indexes.has(name) && this.resolve(name).length > 0;
  }

  injectedFailure(item: BulkItem): FakeOpenSearchError | undefined {
    const rule = this.itemFailures.find(
      (candidate) => candidate.remaining > 0 && candidate.match(item),
    );
    if (rule === undefined) return undefined;
    rule.remaining -= 1;
    return new FakeOpenSearchError(rule.status, rule.type, rule.reason, {
      index: item.index,
      shard: '0',
    });
  }

  /** Routes a request; a FakeOpenSearchError becomes OpenSearch's error body. */
  handle(request: ClusterRequest): ClusterReply {
    try {
      return this.#route(request);
    } catch (error) {
      if (error instanceof FakeOpenSearchError) return { status: error.status, json: error.body() };
      if (error instanceof SyntaxError)
        return {
          status: 400,
          json: new FakeOpenSearchError(
            400,
            'parsing_exception',
            `malformed JSON: ${error.message}`,
          ).body(),
        };
      throw error;
    }
  }

  #route(request: ClusterRequest): ClusterReply {
    const { method, query } = request;
    const segments = request.path.split('/').filter(Boolean).map(decodeURIComponent);
    const [first, second, third] = segments;
    const is = (methods: string[], parameters: string[]) => {
      if (!methods.includes(method)) return false;
      for (const key of query.keys()) {
        if (!parameters.includes(key))
          throw new FakeOpenSearchError(
            400,
            'illegal_argument_exception',
            `request [${request.path}] contains unrecognized parameter: [${key}]`,
          );
      }
      return true;
    };
    const json = () => this.#json(request);
    if (
      first === '_cat' &&
      second === 'plugins' &&
      segments.length === 2 &&
      is(['GET'], ['format'])
    )
      return catPlugins(this, query);
    if (
      first === '_cluster' &&
      second === 'health' &&
      segments.length <= 3 &&
      is(['GET'], ['timeout'])
    )
      return clusterHealth(this, third);
    if (first === '_alias' && segments.length === 2 && second && is(['GET'], []))
      return getAlias(this, second);
    if (first === '_aliases' && segments.length === 1 && is(['POST'], []))
      return { status: 200, json: updateAliases(this, json()) };
    const bulkParameters = ['refresh', 'require_alias'];
    if (first === '_bulk' && segments.length === 1 && is(['POST', 'PUT'], bulkParameters))
      return { status: 200, json: documents.bulk(this, undefined, this.#ndjson(request), query) };
    if (first && !first.startsWith('_') && segments.length === 2) {
      if (second === '_bulk' && is(['POST', 'PUT'], bulkParameters))
        return { status: 200, json: documents.bulk(this, first, this.#ndjson(request), query) };
      if (second === '_search' && is(['POST', 'GET'], []))
        return { status: 200, json: documents.search(this, first, json()) };
      if (second === '_delete_by_query' && is(['POST'], ['refresh', 'conflicts'])) {
        if (!['proceed', 'abort', null].includes(query.get('conflicts')))
          throw FakeOpenSearchError.unsupported('that conflicts value');
        return { status: 200, json: documents.deleteByQuery(this, first, json(), query) };
      }
      if (second === '_refresh' && is(['POST', 'GET'], []))
        return { status: 200, json: documents.refresh(this, first) };
    }
    if (first && !first.startsWith('_') && segments.length === 1) {
      if (is(['PUT'], [])) return { status: 200, json: createIndex(this, first, json()) };
      if (is(['GET', 'HEAD'], [])) {
        const found = this.resolve(first);
        if (found.length === 0) throw FakeOpenSearchError.indexNotFound(first);
        return {
          status: 200,
          json: Object.fromEntries(found.map((index) => [index.name, index.describe()])),
        };
      }
      if (is(['DELETE'], [])) return { status: 200, json: deleteIndex(this, first) };
    }
    throw new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      `no handler found for uri [${request.path}] and method [${method}]`,
    );
  }

  #json(request: ClusterRequest): unknown {
    if (request.body === '') return undefined;
    if (!request.contentType.startsWith('application/json'))
      throw new FakeOpenSearchError(
        406,
        'illegal_argument_exception',
        `Content-Type header [${request.contentType}] is not supported`,
      );
    return JSON.parse(request.body);
  }

  #ndjson(request: ClusterRequest): string {
    if (
      !request.contentType.startsWith('application/x-ndjson') &&
      !request.contentType.startsWith('application/json')
    )
      throw new FakeOpenSearchError(
        406,
        'illegal_argument_exception',
        `Content-Type header [${request.contentType}] is not supported`,
      );
    return request.body;
  }
}
