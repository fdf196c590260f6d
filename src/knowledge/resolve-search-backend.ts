import type { Embedder } from '../models/index.ts';
import type { KnowledgeVariables } from './knowledge-variables.ts';
import type { BatchLimits } from './opensearch/bulk-writer.ts';
import { asClusterStartError } from './opensearch/cluster-errors.ts';
import { IndexClient } from './opensearch/index-client.ts';
import {
  type ReindexProgress,
  type ReindexResult,
  rebuildIndex,
} from './opensearch/rebuild-index.ts';
import { createOpenSearchClient, readSearchSettings } from './opensearch/search-settings.ts';
import { OpenSearchRetriever } from './opensearch-retriever.ts';
import type { DocumentStore, Retriever, SearchHealth } from './types.ts';

/** The knowledge base's search backend, as the composition root wires it. */
export interface SearchBackend {
  retriever: Retriever;
  /** `{backend, state, lastError?}` for `GET /api/agent/status` (cheap: no request to the cluster). */
  health(): SearchHealth;
  close(): Promise<void>;
}

/** What the backend is built from; the stores are opened only for the backend in use. */
export interface SearchBackendOptions {
  embedder?: Embedder | undefined;
  /** The store's own retriever (SqliteRetriever), used when `YEOUL_SEARCH_URL` is unset. */
  openLocal: () => Retriever;
  /** Which store that is, for `health()` (default `sqlite`). */
  localBackend?: 'sqlite' | 'postgres';
  /** Where documents and chunks live when the index is in a cluster (SqliteDocumentStore). */
  openStore: () => DocumentStore;
  /** Called when the cluster becomes unavailable or ok again (for a log line). */
  onStateChange?: (health: SearchHealth) => void;
  /** How often pending index writes are retried, in ms (default 15 000). */
  retryIntervalMs?: number;
}

/**
 * The retriever `YEOUL_SEARCH_URL` asks for: unset, the store's own index; `opensearch:URL`,
 * an OpenSearch cluster (its index created or checked now: a mismatching index throws
 * `search_index_mismatch`, an unreachable cluster does not stop the start).
 * @example
 * const search = await resolveSearchBackend({ YEOUL_SEARCH_URL: 'opensearch:http://localhost:9200' }, {
 *   embedder,
 *   openLocal: () => new SqliteRetriever({ path, embedder }),
 *   openStore: () => new SqliteDocumentStore({ path }),
 * });
 * const knowledge = new KnowledgeBase(search.retriever);
 */
export async function resolveSearchBackend(
  env: KnowledgeVariables,
  options: SearchBackendOptions,
): Promise<SearchBackend> {
  const settings = readSearchSettings(env);
  if (settings === undefined) {
    const retriever = options.openLocal();
    const backend = options.localBackend ?? 'sqlite';
    return { retriever, health: () => ({ backend, state: 'ok' }), close: () => retriever.close() };
  }
  const retriever = await OpenSearchRetriever.open({
    settings,
    store: options.openStore(),
    embedder: options.embedder,
    ...(options.onStateChange ? { onStateChange: options.onStateChange } : {}),
    ...(options.retryIntervalMs === undefined ? {} : { retryIntervalMs: options.retryIntervalMs }),
  });
  return { retriever, health: () => retriever.health(), close: () => retriever.close() };
}

/** What `yeoul reindex` rebuilds from. */
export interface RebuildSearchIndexOptions {
  store: DocumentStore;
  embedder?: Embedder | undefined;
  onProgress?: (progress: ReindexProgress) => void;
  batch?: BatchLimits;
}

/**
 * `yeoul reindex`: rebuilds the cluster's index from the store (after a mapping change or a
 * lost cluster); undefined when `YEOUL_SEARCH_URL` names no cluster. It does not check the
 * old index, which may be the very mismatch being fixed.
 */
export async function rebuildSearchIndex(
  env: KnowledgeVariables,
  options: RebuildSearchIndexOptions,
): Promise<ReindexResult | undefined> {
  const settings = readSearchSettings(env);
  if (settings === undefined) return undefined;
  const index = new IndexClient(createOpenSearchClient(settings, { requestTimeoutMs: 60_000 }));
  try {
    return await rebuildIndex({
      index,
      alias: settings.index,
      store: options.store,
      embedder: options.embedder,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.batch ? { batch: options.batch } : {}),
    });
  } catch (error) {
    throw asClusterStartError(error);
  } finally {
    await index.close();
  }
}
