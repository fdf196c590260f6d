export { indexTerms, queryTerms } from './analyzer.ts';
export { type Block, type ChunkOptions, chunkBlocks } from './chunk-blocks.ts';
export { decodeText, type TextEncoding } from './decode-text.ts';
export { EmptyDocumentError } from './errors/empty-document-error.ts';
export { IndexWriteError } from './errors/index-write-error.ts';
export { SearchConfigError } from './errors/search-config-error.ts';
export { SearchIndexMismatchError } from './errors/search-index-mismatch-error.ts';
export { SearchUnavailableError } from './errors/search-unavailable-error.ts';
export { UnsupportedDocumentError } from './errors/unsupported-document-error.ts';
export { UnsupportedEncodingError } from './errors/unsupported-encoding-error.ts';
export { fuseRankings } from './fuse-rankings.ts';
export { keywordTokens } from './keyword-tokens.ts';
export {
  type IngestProgress,
  type IngestResult,
  KnowledgeBase,
  type KnowledgeBaseOptions,
} from './knowledge-base.ts';
export { type KnowledgeVariables, knowledgeVariables } from './knowledge-variables.ts';
export { stripKoreanSuffix } from './korean-words.ts';
export type { ReindexProgress, ReindexResult } from './opensearch/rebuild-index.ts';
export {
  defaultIndexName,
  type OpenSearchSettings,
  readSearchSettings,
} from './opensearch/search-settings.ts';
export { OpenSearchRetriever, type OpenSearchRetrieverOptions } from './opensearch-retriever.ts';
export {
  type DocumentFormat,
  formatOfPath,
  type ParsedDocument,
  parseFile,
  parseFileData,
  parseText,
} from './parse-document.ts';
export {
  PostgresDocumentStore,
  type PostgresDocumentStoreOptions,
} from './postgres-document-store.ts';
export { knowledgeMigrations } from './postgres-migrations.ts';
export { PostgresRetriever, type PostgresRetrieverOptions } from './postgres-retriever.ts';
export {
  type RebuildSearchIndexOptions,
  rebuildSearchIndex,
  resolveSearchBackend,
  type SearchBackend,
  type SearchBackendOptions,
} from './resolve-search-backend.ts';
export { SqliteDocumentStore, type SqliteDocumentStoreOptions } from './sqlite-document-store.ts';
export { SqliteRetriever, type SqliteRetrieverOptions } from './sqlite-retriever.ts';
export type {
  Chunk,
  DocumentInput,
  DocumentStore,
  PendingIndexWrite,
  Retriever,
  SearchHealth,
  SearchHit,
  SearchOptions,
  StoredDocument,
} from './types.ts';
export { weightedBm25OfCounts, weightedKeywordTokens } from './weighted-bm25.ts';
