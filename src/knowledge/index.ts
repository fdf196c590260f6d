export { indexTerms, queryTerms } from './analyzer.ts';
export { SearchUnavailableError } from './errors/search-unavailable-error.ts';
export { fuseRankings } from './fuse-rankings.ts';
export { keywordTokens } from './keyword-tokens.ts';
export { type IngestProgress, type IngestResult, KnowledgeBase } from './knowledge-base.ts';
export { knowledgeVariables } from './knowledge-variables.ts';
export type { ReindexProgress } from './opensearch/rebuild-index.ts';
export { readSearchSettings } from './opensearch/search-settings.ts';
export { OpenSearchRetriever } from './opensearch-retriever.ts';
export { formatOfPath } from './parse-document.ts';
export { PostgresDocumentStore } from './postgres-document-store.ts';
export { knowledgeMigrations } from './postgres-migrations.ts';
export { PostgresRetriever } from './postgres-retriever.ts';
export {
  rebuildSearchIndex,
  resolveSearchBackend,
  type SearchBackend,
} from './resolve-search-backend.ts';
export { SqliteDocumentStore } from './sqlite-document-store.ts';
export { SqliteRetriever } from './sqlite-retriever.ts';
export { weightedBm25OfCounts, weightedKeywordTokens } from './weighted-bm25.ts';
