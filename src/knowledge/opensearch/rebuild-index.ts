import type { Embedder } from '../../models/index.ts';
import type { DocumentStore, StoredDocument } from '../types.ts';
import {
  type BatchLimits,
  type EntrySource,
  embeddedEntries,
  writeInBatches,
} from './bulk-writer.ts';
import { chooseAnalysis, concreteIndexName, newIndexDefinition } from './ensure-index.ts';
import type { IndexClient } from './index-client.ts';
import { documentQuery } from './query-bodies.ts';

/** Progress of a rebuild, one report per document. */
export interface ReindexProgress {
  done: number;
  total: number;
  document: { id: string; title: string; status: 'indexed' | 'failed' };
  error?: string;
}

/** What a rebuild did. */
export interface ReindexResult {
  /** The new index behind the alias, and the ones it replaced (removed). */
  index: string;
  replaced: string[];
  documents: number;
  chunks: number;
  /** Documents the cluster did not accept: marked pending, retried by the running Yeoul. */
  failed: Array<{ documentId: string; error: string }>;
}

/** What a rebuild reads from and writes to. */
export interface RebuildOptions {
  index: IndexClient;
  alias: string;
  store: DocumentStore;
  embedder: Embedder | undefined;
  onProgress?: (progress: ReindexProgress) => void;
  batch?: BatchLimits;
  /** Documents embedded and sent together (default 20). */
  documentsPerBatch?: number;
  now?: () => number;
}

/**
 * Rebuilds the index from the store: a new index with the current settings and mappings
 * is filled while the old one keeps answering, then the alias moves to it and the old one
 * is removed in one step. Documents changed or deleted meanwhile are caught up after.
 */
export async function rebuildIndex(options: RebuildOptions): Promise<ReindexResult> {
  const { index, alias, embedder } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const analysis = await chooseAnalysis(index, embedder);
  const concrete = concreteIndexName(alias, startedAt);
  await index.create(concrete, await newIndexDefinition(analysis, embedder));
  try {
    return await fillAndSwap(options, concrete, startedAt);
  } catch (error) {
    // The half-built index is of no use; the old one stays behind the alias.
    await index.remove(concrete).catch(() => undefined);
    throw error;
  }
}

async function fillAndSwap(
  options: RebuildOptions,
  concrete: string,
  startedAt: number,
): Promise<ReindexResult> {
  const { index, alias, store } = options;
  const documents = await store.listDocuments();
  const failed = new Map<string, string>();
  const written = new Map<string, number>();
  let chunks = 0;
  let done = 0;
  const perBatch = options.documentsPerBatch ?? 20;
  for (let start = 0; start < documents.length; start += perBatch) {
    const batch = documents.slice(start, start + perBatch);
    const outcome = await fill(options, concrete, batch);
    chunks += outcome.chunks;
    for (const [documentId, ticket] of outcome.tickets) written.set(documentId, ticket);
    for (const document of batch) {
      const error = outcome.failed.get(document.id);
      if (error !== undefined) failed.set(document.id, error);
      done += 1;
      options.onProgress?.({
        done,
        total: documents.length,
        document: { id: document.id, title: document.title, status: error ? 'failed' : 'indexed' },
        ...(error ? { error } : {}),
      });
    }
  }
  await index.refresh(concrete);
  const replaced = await index.aliasTargets(alias);
  await index.moveAlias(alias, concrete, replaced);
  // Only now is the new index the one searched: its writes settle the outbox.
  for (const [documentId, ticket] of written) await store.completeWrite(documentId, ticket);
  await catchUp(options, documents, startedAt);
  if (failed.size > 0) await store.markPending([...failed.keys()]);
  return {
    index: concrete,
    replaced,
    documents: documents.length,
    chunks,
    failed: [...failed].map(([documentId, error]) => ({ documentId, error })),
  };
}

/** Embeds and bulk-writes a batch of documents into the new index; settles their outbox entries. */
async function fill(
  options: RebuildOptions,
  target: string,
  documents: StoredDocument[],
): Promise<{ failed: Map<string, string>; tickets: Map<string, number>; chunks: number }> {
  const { store, embedder } = options;
  const sources: EntrySource[] = [];
  const tickets = new Map<string, number>();
  let chunks = 0;
  for (const document of documents) {
    const ticket = await store.ticketOf(document.id);
    const documentChunks = await store.chunksOf(document.id);
    tickets.set(document.id, ticket);
    chunks += documentChunks.length;
    sources.push({ document, chunks: documentChunks, ticket });
  }
  const { entries, failed } = await embeddedEntries(embedder, sources);
  const outcome = await writeInBatches(options.index, target, entries, {
    ...options.batch,
    refresh: 'false',
    requireAlias: false,
  });
  if (outcome.requestError !== undefined) throw outcome.requestError;
  for (const [documentId, error] of outcome.failed) failed.set(documentId, error);
  for (const documentId of failed.keys()) tickets.delete(documentId);
  return { failed, tickets, chunks };
}

/** Writes made by a running Yeoul during the rebuild went to the old index: repeat them on the new one. */
async function catchUp(
  options: RebuildOptions,
  indexed: StoredDocument[],
  startedAt: number,
): Promise<void> {
  const current = await options.store.listDocuments();
  const ids = new Set(current.map((document) => document.id));
  const changed = current.filter((document) => document.updatedAt >= startedAt);
  if (changed.length > 0) await options.store.markPending(changed.map((document) => document.id));
  for (const document of indexed) {
    if (!ids.has(document.id))
      await options.index.deleteByQuery(options.alias, documentQuery(document.id));
  }
}
