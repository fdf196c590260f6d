export { indexTerms, queryTerms, stripKoreanSuffix } from './analyzer.ts';
export { type Block, type ChunkOptions, chunkBlocks } from './chunk-blocks.ts';
export { UnsupportedDocumentError } from './errors/unsupported-document-error.ts';
export {
  type IngestProgress,
  type IngestResult,
  KnowledgeBase,
  type KnowledgeBaseOptions,
} from './knowledge-base.ts';
export {
  type DocumentFormat,
  formatOfPath,
  type ParsedDocument,
  parseFile,
  parseText,
} from './parse-document.ts';
export { SqliteRetriever, type SqliteRetrieverOptions } from './sqlite-retriever.ts';
export type {
  Chunk,
  DocumentInput,
  Retriever,
  SearchHit,
  SearchOptions,
  StoredDocument,
} from './types.ts';
