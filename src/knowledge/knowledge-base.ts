import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isYeoulError } from '../core/index.ts';
import { type ChunkOptions, chunkBlocks } from './chunk-blocks.ts';
import { EmptyDocumentError } from './errors/empty-document-error.ts';
import { UnsupportedDocumentError } from './errors/unsupported-document-error.ts';
import {
  formatOfPath,
  type ParsedDocument,
  parseFile,
  parseFileData,
  parseText,
} from './parse-document.ts';
import type {
  DocumentInput,
  Retriever,
  SearchHit,
  SearchOptions,
  StoredDocument,
} from './types.ts';

/** Progress of an ingestion, for a progress bar. */
export interface IngestProgress {
  done: number;
  total: number;
  /** The document just handled: its id, title and what happened to it. */
  document: { id: string; title: string; status: 'added' | 'updated' | 'unchanged' | 'failed' };
  source?: string;
  error?: string;
}

/** What an ingestion did. */
export interface IngestResult {
  ids: string[];
  /** Chunks written (unchanged documents add none). */
  chunks: number;
  unchanged: string[];
  failed: Array<{ source: string; error: string }>;
}

/** How documents are cut and where they go. */
export interface KnowledgeBaseOptions extends ChunkOptions {
  /** Raw text without a format is read as Markdown when it has Markdown headings. */
  now?: () => number;
}

const maxFileBytes = 20 * 1024 * 1024;

/**
 * The knowledge base: reads documents (text, Markdown, HTML, PDF; files, folders or raw
 * text), cuts them into chunks along their structure, and keeps them in a Retriever.
 * Re-ingesting unchanged content does nothing (content hash); a changed document replaces
 * its old chunks.
 */
export class KnowledgeBase {
  readonly retriever: Retriever;
  #options: KnowledgeBaseOptions;

  constructor(retriever: Retriever, options: KnowledgeBaseOptions = {}) {
    this.retriever = retriever;
    this.#options = options;
  }

  /** Adds raw documents (Markdown or plain text). */
  async addDocuments(
    inputs: DocumentInput[],
    onProgress?: (progress: IngestProgress) => void,
  ): Promise<IngestResult> {
    const result: IngestResult = { ids: [], chunks: 0, unchanged: [], failed: [] };
    const documents = inputs.map((input) => {
      const parsed = parseText(input.text, /^#{1,6}\s/m.test(input.text) ? 'markdown' : 'text');
      const id =
        input.id ?? (input.source ? idOf(`source:${input.source}`) : idOf(`text:${input.text}`));
      const title = input.title?.trim() || parsed.title || firstLine(parsed.text);
      return { input, parsed, id, title };
    });
    // A document without text refuses the whole batch before any of it is stored.
    for (const { input, parsed, id, title } of documents) {
      if (parsed.text.trim() === '') {
        throw new EmptyDocumentError({ source: input.source ?? title ?? id });
      }
    }
    for (const [index, { input, parsed, id, title }] of documents.entries()) {
      try {
        await this.#store(result, {
          id,
          title,
          parsed,
          source: input.source ?? null,
          metadata: input.metadata ?? {},
        });
      } catch (error) {
        // Stored but not accepted by an outside search index: reported as failed, retried later.
        if (!isYeoulError(error, 'search_index_write_failed')) throw error;
        result.failed.push({ source: input.source ?? id, error: error.message });
        onProgress?.({
          done: index + 1,
          total: inputs.length,
          document: { id, title, status: 'failed' },
          error: error.message,
        });
        continue;
      }
      onProgress?.({
        done: index + 1,
        total: inputs.length,
        document: this.#last(result, id, title),
      });
    }
    return result;
  }

  /**
   * Adds one file handed in as bytes (an upload): its id is `id` when given, else the
   * file's own name without folders (so uploading it again replaces, or when unchanged
   * keeps, the same document); `title` and `metadata` override what the file says.
   * Throws for a file that cannot be read, has no text, or is in an unknown encoding.
   */
  async addFile(file: {
    name: string;
    data: Uint8Array;
    id?: string;
    title?: string;
    metadata?: Record<string, unknown>;
  }): Promise<IngestResult> {
    const name = file.name.split(/[\\/]/).at(-1) || 'upload.txt';
    const parsed = await parseFileData(name, file.data);
    const result: IngestResult = { ids: [], chunks: 0, unchanged: [], failed: [] };
    await this.#store(result, {
      id: file.id ?? name,
      title: file.title?.trim() || parsed.title,
      parsed,
      source: name,
      metadata: { filename: name, ...file.metadata },
    });
    return result;
  }

  /** Adds files and folders (recursively: every .txt, .md, .html and .pdf). */
  async ingestPaths(
    paths: string[],
    onProgress?: (progress: IngestProgress) => void,
  ): Promise<IngestResult> {
    const files = (await Promise.all(paths.map((path) => filesUnder(resolve(path))))).flat();
    const result: IngestResult = { ids: [], chunks: 0, unchanged: [], failed: [] };
    for (const [index, file] of files.entries()) {
      const id = idOf(`source:${file.id}`);
      try {
        const parsed = await parseFile(file.path);
        await this.#store(result, {
          id,
          title: parsed.title,
          parsed,
          source: file.id,
          metadata: { path: file.id },
        });
        onProgress?.({
          done: index + 1,
          total: files.length,
          document: this.#last(result, id, parsed.title),
          source: file.id,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        result.failed.push({ source: file.id, error: message });
        onProgress?.({
          done: index + 1,
          total: files.length,
          document: { id, title: file.id, status: 'failed' },
          source: file.id,
          error: message,
        });
      }
    }
    return result;
  }

  search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.retriever.search(query, options);
  }

  deleteDocument(id: string): Promise<boolean> {
    return this.retriever.deleteDocument(id);
  }

  listDocuments(): Promise<StoredDocument[]> {
    return this.retriever.listDocuments();
  }

  async #store(
    result: IngestResult,
    document: {
      id: string;
      title: string;
      parsed: ParsedDocument;
      source: string | null;
      metadata: Record<string, unknown>;
    },
  ): Promise<void> {
    if (document.parsed.text.trim() === '') {
      throw new EmptyDocumentError({ source: document.source ?? document.title ?? document.id });
    }
    const contentHash = createHash('sha256')
      .update(JSON.stringify([document.title, document.parsed.text, document.metadata]))
      .digest('hex');
    const existing = await this.retriever.getDocument(document.id);
    // A document an outside index has not accepted yet is written again, never "unchanged".
    if (existing?.contentHash === contentHash && existing.indexPending !== true) {
      result.ids.push(document.id);
      result.unchanged.push(document.id);
      return;
    }
    const chunks = chunkBlocks(document.id, document.parsed.blocks, this.#options);
    await this.retriever.upsertDocument(
      {
        id: document.id,
        title: document.title,
        source: document.source,
        contentHash,
        metadata: document.metadata,
        chunkCount: chunks.length,
        updatedAt: (this.#options.now ?? Date.now)(),
      },
      chunks,
    );
    result.ids.push(document.id);
    result.chunks += chunks.length;
  }

  #last(result: IngestResult, id: string, title: string): IngestProgress['document'] {
    return { id, title, status: result.unchanged.includes(id) ? 'unchanged' : 'added' };
  }
}

/** A stable id from a source or content: 16 hex characters of its SHA-256. */
function idOf(seed: string): string {
  return `doc-${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? 'untitled';
  return line.length > 80 ? `${line.slice(0, 80)}…` : line.trim();
}

async function filesUnder(root: string): Promise<Array<{ path: string; id: string }>> {
  const info = await stat(root).catch(() => undefined);
  if (info === undefined)
    throw new UnsupportedDocumentError({ source: root, reason: 'no such file or folder' });
  if (info.isFile()) {
    if (info.size > maxFileBytes)
      throw new UnsupportedDocumentError({
        source: root,
        reason: `it is larger than ${maxFileBytes / 1024 / 1024} MB`,
      });
    return [{ path: root, id: root }];
  }
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && formatOfPath(entry.name) !== undefined)
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((path) => ({ path, id: path }));
}
