import type { Embedder } from '../../models/index.ts';
import { embeddingTextOf } from '../embedding-text.ts';
import type { Chunk, StoredDocument } from '../types.ts';
import { classifyClusterError } from './cluster-errors.ts';
import type { IndexClient } from './index-client.ts';

/** One document's `_bulk` lines (an action line and a source line per chunk). */
export interface IndexEntry {
  documentId: string;
  ticket: number;
  lines: unknown[];
}

/** How large one `_bulk` request may grow. */
export interface BatchLimits {
  /** Actions (chunks) per request (default 500). */
  maxActions?: number;
  /** Bytes of JSON per request, roughly (default 5 MB). */
  maxBytes?: number;
}

/** What a bulk write did: the documents the cluster did not take, with why. */
export interface BulkOutcome {
  failed: Map<string, string>;
  /** Set when a whole request failed (no connection, 5xx): the cluster may be down. */
  requestError: unknown;
}

/**
 * The lines indexing a document's chunks, each versioned by the write's ticket
 * (`version_type: external`), so a late, older write can never replace a newer one.
 */
export function indexEntryFor(
  document: StoredDocument,
  chunks: Chunk[],
  ticket: number,
  vectors: number[][] | undefined,
): IndexEntry {
  const lines = chunks.flatMap((chunk, index) => {
    const vector = vectors?.[index];
    return [
      { index: { _id: chunk.id, version: ticket, version_type: 'external' } },
      {
        documentId: document.id,
        chunkId: chunk.id,
        position: chunk.position,
        ticket,
        title: document.title,
        heading: chunk.heading,
        text: chunk.text,
        body: `${chunk.heading}\n${chunk.text}`,
        metadata: document.metadata,
        ...(vector ? { embedding: vector } : {}),
      },
    ];
  });
  return { documentId: document.id, ticket, lines };
}

/** A document version to index: the document, its chunks and the write's ticket. */
export interface EntrySource {
  document: StoredDocument;
  chunks: Chunk[];
  ticket: number;
}

/**
 * The index entries of these document versions, their chunks embedded when there is an
 * embedder; a document whose embedding failed is left out and listed with why.
 */
export async function embeddedEntries(
  embedder: Embedder | undefined,
  sources: EntrySource[],
): Promise<{ entries: IndexEntry[]; failed: Map<string, string> }> {
  const entries: IndexEntry[] = [];
  const failed = new Map<string, string>();
  for (const { document, chunks, ticket } of sources) {
    try {
      const vectors =
        embedder && chunks.length > 0
          ? await embedder.embed(chunks.map((chunk) => embeddingTextOf(document.title, chunk)))
          : undefined;
      entries.push(indexEntryFor(document, chunks, ticket, vectors));
    } catch (error) {
      failed.set(document.id, `embedding failed: ${(error as Error).message}`);
    }
  }
  return { entries, failed };
}

/**
 * Sends entries through `_bulk` in bounded batches (a large document may span several)
 * and reads every item's result. A conflict (409) means a newer write already landed,
 * which is a success for this one. After a failed request the rest is not sent.
 */
export async function writeInBatches(
  index: IndexClient,
  target: string,
  entries: IndexEntry[],
  options: BatchLimits & { refresh: 'wait_for' | 'false'; requireAlias: boolean },
): Promise<BulkOutcome> {
  const maxActions = options.maxActions ?? 500;
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const failed = new Map<string, string>();
  let lines: unknown[] = [];
  let owners: string[] = [];
  let bytes = 0;
  let requestError: unknown;
  const flush = async () => {
    if (lines.length === 0) return;
    const sent = { lines, owners };
    lines = [];
    owners = [];
    bytes = 0;
    if (requestError !== undefined) {
      for (const owner of sent.owners) failed.set(owner, classifyClusterError(requestError).reason);
      return;
    }
    try {
      const items = await index.bulk(target, sent.lines, options);
      items.forEach((item, position) => {
        const owner = sent.owners[position] as string;
        if ((item.status >= 200 && item.status < 300) || item.status === 409) return;
        const reason = `${item.status} ${item.error?.type ?? 'error'}: ${item.error?.reason ?? ''}`;
        if (!failed.has(owner)) failed.set(owner, reason.trim());
      });
    } catch (error) {
      requestError = error;
      for (const owner of sent.owners) failed.set(owner, classifyClusterError(error).reason);
    }
  };
  for (const entry of entries) {
    for (let position = 0; position < entry.lines.length; position += 2) {
      const size = JSON.stringify(entry.lines[position + 1]).length + 100;
      if (owners.length >= maxActions || (bytes + size > maxBytes && owners.length > 0))
        await flush();
      lines.push(entry.lines[position], entry.lines[position + 1]);
      owners.push(entry.documentId);
      bytes += size;
    }
  }
  await flush();
  return { failed, requestError };
}
