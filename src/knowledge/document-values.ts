import type { StoredDocument } from './types.ts';

/**
 * A document's row values in the order every store writes them: id, title, source, content
 * hash, metadata (JSON), chunk count, updated at.
 */
export function documentValues(document: StoredDocument, chunkCount: number) {
  return [
    document.id,
    document.title,
    document.source,
    document.contentHash,
    JSON.stringify(document.metadata),
    chunkCount,
    document.updatedAt,
  ] as const;
}
