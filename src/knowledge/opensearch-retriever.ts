import { isYeoulError } from '../core/index.ts';
import type { Embedder } from '../models/index.ts';
import { queryTerms } from './analyzer.ts';
import { IndexWriteError } from './errors/index-write-error.ts';
import { SearchUnavailableError } from './errors/search-unavailable-error.ts';
import { fuseRankings, hitCount } from './fuse-rankings.ts';
import type { BatchLimits } from './opensearch/bulk-writer.ts';
import { asClusterStartError, classifyClusterError } from './opensearch/cluster-errors.ts';
import { ClusterMonitor } from './opensearch/cluster-monitor.ts';
import { ensureIndex, type PreparedIndex } from './opensearch/ensure-index.ts';
import { IndexClient, type SearchResponseHit } from './opensearch/index-client.ts';
import { IndexWriter } from './opensearch/index-writer.ts';
import {
  cosineOfScore,
  keywordQueryText,
  keywordSearchBody,
  vectorSearchBody,
} from './opensearch/query-bodies.ts';
import { createOpenSearchClient, type OpenSearchSettings } from './opensearch/search-settings.ts';
import type {
  Chunk,
  DocumentStore,
  Retriever,
  SearchHealth,
  SearchHit,
  SearchOptions,
  StoredDocument,
} from './types.ts';

/** How the OpenSearch retriever reaches its cluster and keeps its documents. */
export interface OpenSearchRetrieverOptions {
  settings: OpenSearchSettings;
  /** Where documents and chunks live (the source of truth) with the outbox of index writes. */
  store: DocumentStore;
  /** With an embedder, chunks get vectors (k-NN) and search fuses both rankings. */
  embedder?: Embedder | undefined;
  /** Vector hits less similar than this (cosine) are left out (default 0.25, as in SqliteRetriever). */
  minSimilarity?: number;
  batch?: BatchLimits;
  /** How often the cluster is checked and pending writes are retried, in ms (default 15 000; 0 = never). */
  retryIntervalMs?: number;
  /** While unavailable, how long requests fail at once before the cluster is asked again (default 2 000 ms). */
  recheckMs?: number;
  requestTimeoutMs?: number;
  onStateChange?: (health: SearchHealth) => void;
  now?: () => number;
}

/** How many candidates each ranking contributes before fusion (as in SqliteRetriever). */
const candidatesPerRanking = 50;

/**
 * The knowledge index in an OpenSearch cluster: documents and chunks stay in the store,
 * the cluster holds the index (BM25 over a Korean analyzer, k-NN vectors with an
 * embedder). Writes the cluster refuses stay pending and are retried; an unreachable or
 * red cluster makes search throw `search_unavailable`, and it recovers by itself.
 * @example
 * const retriever = await OpenSearchRetriever.open({ settings, store: new SqliteDocumentStore({ path }) });
 */
export class OpenSearchRetriever implements Retriever {
  readonly index: IndexClient;
  readonly monitor: ClusterMonitor;
  #options: OpenSearchRetrieverOptions;
  #store: DocumentStore;
  #writer: IndexWriter;
  #prepared: PreparedIndex | undefined;
  #preparing: Promise<PreparedIndex> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<unknown> | undefined;

  /** Connects and prepares the index; a mismatching index or a bad configuration throws, an unreachable cluster does not. */
  static async open(options: OpenSearchRetrieverOptions): Promise<OpenSearchRetriever> {
    const retriever = new OpenSearchRetriever(options);
    try {
      await retriever.#ready();
    } catch (error) {
      const failure = classifyClusterError(error);
      // Refused credentials or requests are a configuration to fix now, not an outage to wait out.
      if (!failure.unavailable || failure.status === 401 || failure.status === 403) {
        await retriever.close();
        throw asClusterStartError(error);
      }
      // An unreachable cluster does not stop Yeoul: search says so until it is back.
      retriever.monitor.fail(error);
    }
    retriever.#startTimer();
    return retriever;
  }

  constructor(options: OpenSearchRetrieverOptions) {
    this.#options = options;
    this.#store = options.store;
    this.index = new IndexClient(
      createOpenSearchClient(options.settings, {
        ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      }),
    );
    this.monitor = new ClusterMonitor({
      probe: async () => {
        const status = await this.index.health(await this.#ready());
        // A lost index (a cluster rebuilt empty) is created again and refilled from the store.
        if (status === 'missing') this.#prepared = undefined;
        return status;
      },
      ...(options.recheckMs === undefined ? {} : { recheckMs: options.recheckMs }),
      ...(options.now ? { now: options.now } : {}),
      ...(options.onStateChange ? { onStateChange: options.onStateChange } : {}),
    });
    this.#writer = new IndexWriter({
      index: this.index,
      monitor: this.monitor,
      store: this.#store,
      embedder: options.embedder,
      ready: () => this.#ready(),
      ...(options.batch ? { batch: options.batch } : {}),
    });
  }

  /** The cluster's state as last seen: `{backend: 'opensearch', state, lastError?}`. */
  health(): SearchHealth {
    return this.monitor.health();
  }

  async upsertDocument(document: StoredDocument, chunks: Chunk[]): Promise<void> {
    const existed = (await this.#store.ticketOf(document.id)) > 0;
    const ticket = await this.#store.writeDocument(document, chunks);
    const failed = await this.#writer.write([{ document, chunks, ticket, cleanup: existed }]);
    const reason = failed.get(document.id);
    if (reason !== undefined) throw new IndexWriteError({ documentId: document.id, reason });
    // The next ingest retries what is pending, a little at a time.
    if (this.#draining === undefined) await this.#drain(1);
  }

  async deleteDocument(id: string): Promise<boolean> {
    const ticket = await this.#store.removeDocument(id);
    if (ticket === undefined) return false;
    // When the cluster does not take the delete now, it stays pending and search hides the document.
    await this.#writer.remove(id, ticket);
    return true;
  }

  getDocument(id: string): Promise<StoredDocument | undefined> {
    return this.#store.getDocument(id);
  }

  listDocuments(): Promise<StoredDocument[]> {
    return this.#store.listDocuments();
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const k = hitCount(options.k);
    const embedder = this.#options.embedder;
    const wantsVectors = embedder !== undefined && query.trim() !== '';
    const terms = queryTerms(query);
    if (terms.length === 0 && !wantsVectors) return [];
    await this.monitor.ensureAvailable();
    const prepared = await this.#readyForSearch();
    const text = keywordQueryText(query, terms, prepared.analysis);
    if (text === '' && !wantsVectors) return [];
    let keyword: SearchResponseHit[];
    let vector: SearchResponseHit[];
    try {
      [keyword, vector] = await Promise.all([
        text === ''
          ? []
          : this.index.search(
              prepared.alias,
              keywordSearchBody(text, embedder ? candidatesPerRanking : k),
            ),
        wantsVectors ? this.#vectorHits(prepared.alias, query) : [],
      ]);
    } catch (error) {
      if (classifyClusterError(error).type === 'index_not_found_exception')
        this.#prepared = undefined;
      throw this.monitor.fail(error);
    }
    this.monitor.succeed();
    const hidden = await this.#store.pendingDeletions([
      ...new Set([...keyword, ...vector].map((hit) => String(hit._source?.documentId))),
    ]);
    const visible = (hits: SearchResponseHit[]) =>
      hits.filter((hit) => !hidden.has(String(hit._source?.documentId)));
    return rank(visible(keyword), visible(vector), k);
  }

  /** Sends every pending write (or until the cluster refuses one); the timer calls it too. */
  retryPending(): Promise<unknown> {
    return this.#drain(Number.POSITIVE_INFINITY);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#draining?.catch(() => undefined);
    await this.index.close();
    await this.#store.close();
  }

  async #vectorHits(alias: string, query: string): Promise<SearchResponseHit[]> {
    const [vector] = await (this.#options.embedder as Embedder).embed([query]);
    if (vector === undefined) return [];
    const hits = await this.index.search(alias, vectorSearchBody(vector, candidatesPerRanking));
    const minSimilarity = this.#options.minSimilarity ?? 0.25;
    return hits.filter((hit) => cosineOfScore(hit._score) >= minSimilarity);
  }

  /** Prepares the index once (creating it when missing; an empty new index is filled from the store). */
  async #ready(): Promise<string> {
    if (this.#prepared) return this.#prepared.alias;
    this.#preparing ??= ensureIndex(this.index, {
      alias: this.#options.settings.index,
      embedder: this.#options.embedder,
    }).finally(() => {
      this.#preparing = undefined;
    });
    const prepared = await this.#preparing;
    if (this.#prepared === undefined) {
      this.#prepared = prepared;
      if (prepared.created && (await this.#store.markPending()) > 0) void this.retryPending();
    }
    return prepared.alias;
  }

  async #readyForSearch(): Promise<PreparedIndex> {
    try {
      await this.#ready();
      return this.#prepared as PreparedIndex;
    } catch (error) {
      if (isYeoulError(error)) {
        throw this.monitor.fail(
          new SearchUnavailableError(
            { backend: 'opensearch', reason: error.message },
            { cause: error },
          ),
        );
      }
      throw this.monitor.fail(error);
    }
  }

  #drain(rounds: number): Promise<unknown> {
    if (this.#draining) return this.#draining;
    this.#draining = this.#writer
      .drain(rounds)
      .catch(() => undefined)
      .finally(() => {
        this.#draining = undefined;
      });
    return this.#draining;
  }

  #startTimer(): void {
    const every = this.#options.retryIntervalMs ?? 15_000;
    if (every <= 0) return;
    this.#timer = setInterval(async () => {
      if (this.#draining) return;
      try {
        if ((await this.monitor.check()).state === 'ok') await this.retryPending();
      } catch {
        // check() and retryPending() record their failures; the next tick tries again.
      }
    }, every);
    this.#timer.unref();
  }
}

/** Keyword hits alone (BM25 scores), or both rankings fused by reciprocal rank, as SqliteRetriever does. */
function rank(keyword: SearchResponseHit[], vector: SearchResponseHit[], k: number): SearchHit[] {
  const byId = new Map([...vector, ...keyword].map((hit) => [hit._id, hit]));
  const ids = [...byId.keys()];
  const numbered = (hits: SearchResponseHit[]) =>
    hits.map((hit) => ({ rowid: ids.indexOf(hit._id), score: hit._score }));
  const ranked =
    vector.length === 0 ? numbered(keyword) : fuseRankings([numbered(keyword), numbered(vector)]);
  return ranked.slice(0, k).map(({ rowid, score }) => {
    const source = (byId.get(ids[rowid] as string)?._source ?? {}) as Record<string, unknown>;
    return {
      documentId: String(source.documentId),
      chunkId: String(source.chunkId),
      title: String(source.title ?? ''),
      heading: String(source.heading ?? ''),
      text: String(source.text ?? ''),
      score,
      metadata: (source.metadata ?? {}) as Record<string, unknown>,
    };
  });
}
