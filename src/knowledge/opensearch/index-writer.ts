import type { Embedder } from '../../models/index.ts';
import type { Chunk, DocumentStore, StoredDocument } from '../types.ts';
import { type BatchLimits, embeddedEntries, writeInBatches } from './bulk-writer.ts';
import { classifyClusterError } from './cluster-errors.ts';
import type { ClusterMonitor } from './cluster-monitor.ts';
import type { IndexClient } from './index-client.ts';
import { documentQuery, staleChunksQuery } from './query-bodies.ts';

/** A stored document version to put in the index. */
export interface DocumentWrite {
  document: StoredDocument;
  chunks: Chunk[];
  ticket: number;
  /** True when the index may hold an older version whose extra chunks must go. */
  cleanup: boolean;
}

/** What the writer needs: the cluster, the alias, the store's outbox, the embedder. */
export interface IndexWriterOptions {
  index: IndexClient;
  monitor: ClusterMonitor;
  store: DocumentStore;
  embedder: Embedder | undefined;
  /** Resolves to the alias once the index is prepared (throws while the cluster is away). */
  ready: () => Promise<string>;
  batch?: BatchLimits;
}

/**
 * Writes documents from the store to the index and settles the store's outbox: a write
 * the cluster accepted completes its ticket; one it refused (whole request or any chunk)
 * is counted and stays pending, to be sent again by `drain`.
 */
export class IndexWriter {
  #options: IndexWriterOptions;

  constructor(options: IndexWriterOptions) {
    this.#options = options;
  }

  /** Indexes these document versions; returns the ids the cluster did not accept, with why. */
  async write(writes: DocumentWrite[]): Promise<Map<string, string>> {
    const { index, monitor } = this.#options;
    let alias: string;
    try {
      alias = await this.#options.ready();
    } catch (error) {
      monitor.fail(error);
      return this.#settle(writes, failedAll(writes, classifyClusterError(error).reason));
    }
    const { entries, failed } = await embeddedEntries(this.#options.embedder, writes);
    const outcome = await writeInBatches(index, alias, entries, {
      ...this.#options.batch,
      refresh: 'wait_for',
      requireAlias: true,
    });
    if (outcome.requestError === undefined) monitor.succeed();
    else monitor.fail(outcome.requestError);
    for (const [documentId, reason] of outcome.failed) failed.set(documentId, reason);
    for (const write of writes) {
      if (!write.cleanup || failed.has(write.document.id)) continue;
      try {
        await index.deleteByQuery(alias, staleChunksQuery(write.document.id, write.ticket));
      } catch (error) {
        monitor.fail(error);
        failed.set(
          write.document.id,
          `old chunks not removed: ${classifyClusterError(error).reason}`,
        );
      }
    }
    return this.#settle(writes, failed);
  }

  /** Removes a deleted document's entries; false when the cluster did not (it stays pending). */
  async remove(documentId: string, ticket: number): Promise<boolean> {
    const { index, monitor, store } = this.#options;
    try {
      const alias = await this.#options.ready();
      await index.deleteByQuery(alias, documentQuery(documentId));
      monitor.succeed();
      await store.completeWrite(documentId, ticket);
      return true;
    } catch (error) {
      monitor.fail(error);
      await store.failWrite(documentId, ticket, classifyClusterError(error).reason);
      return false;
    }
  }

  /**
   * Sends pending writes, oldest first, `batchSize` documents a round, for at most
   * `rounds` rounds; stops early after a round with a failure (the cluster may be away).
   */
  async drain(rounds: number, batchSize = 50): Promise<{ written: number; failed: number }> {
    const { store } = this.#options;
    let written = 0;
    let failed = 0;
    for (let round = 0; round < rounds; round += 1) {
      const pending = await store.pendingWrites(batchSize);
      if (pending.length === 0) break;
      const writes: DocumentWrite[] = [];
      let failedThisRound = 0;
      for (const item of pending) {
        if (item.action === 'delete') {
          if (await this.remove(item.documentId, item.ticket)) written += 1;
          else failedThisRound += 1;
          continue;
        }
        const document = await store.getDocument(item.documentId);
        if (document === undefined) {
          await store.completeWrite(item.documentId, item.ticket);
          continue;
        }
        const chunks = await store.chunksOf(item.documentId);
        writes.push({ document, chunks, ticket: item.ticket, cleanup: true });
      }
      const refused = writes.length > 0 ? await this.write(writes) : new Map();
      written += writes.length - refused.size;
      failedThisRound += refused.size;
      failed += failedThisRound;
      if (failedThisRound > 0) break;
    }
    return { written, failed };
  }

  async #settle(
    writes: DocumentWrite[],
    failed: Map<string, string>,
  ): Promise<Map<string, string>> {
    for (const write of writes) {
      const reason = failed.get(write.document.id);
      if (reason === undefined)
        await this.#options.store.completeWrite(write.document.id, write.ticket);
      else await this.#options.store.failWrite(write.document.id, write.ticket, reason);
    }
    return failed;
  }
}

function failedAll(writes: DocumentWrite[], reason: string): Map<string, string> {
  return new Map(writes.map((write) => [write.document.id, reason]));
}
