import type { Migration } from '../core/index.ts';

const knowledgeBaseSql = `
CREATE TABLE kb_documents (
  id text COLLATE "C" PRIMARY KEY,
  title text NOT NULL,
  source text,
  content_hash text NOT NULL,
  metadata json NOT NULL,
  chunk_count integer NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX kb_documents_updated ON kb_documents (updated_at DESC, id);

CREATE TABLE kb_chunks (
  rowid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  document_id text COLLATE "C" NOT NULL REFERENCES kb_documents (id) ON DELETE CASCADE,
  position integer NOT NULL,
  heading text NOT NULL,
  text text NOT NULL,
  token_count integer NOT NULL,
  -- Index tokens of title, heading and text together: the BM25 document length.
  term_count integer NOT NULL,
  embedding real[],
  embedding_norm double precision
);
CREATE INDEX kb_chunks_document ON kb_chunks (document_id);

-- The inverted index: how often each token occurs in a chunk's title and body, with the
-- chunk's length repeated so that ranking reads postings only.
CREATE TABLE kb_postings (
  term text COLLATE "C" NOT NULL,
  chunk_rowid bigint NOT NULL REFERENCES kb_chunks (rowid) ON DELETE CASCADE,
  title_frequency integer NOT NULL,
  body_frequency integer NOT NULL,
  chunk_term_count integer NOT NULL,
  PRIMARY KEY (term, chunk_rowid)
);
CREATE INDEX kb_postings_chunk ON kb_postings (chunk_rowid);

-- Corpus totals for BM25 (chunks, tokens), kept exact by the triggers below.
CREATE TABLE kb_statistics (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  chunk_count bigint NOT NULL,
  term_count bigint NOT NULL
);
INSERT INTO kb_statistics (singleton, chunk_count, term_count) VALUES (true, 0, 0);

CREATE TABLE kb_meta (key text PRIMARY KEY, value text NOT NULL);

CREATE FUNCTION kb_count_added_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE kb_statistics
  SET chunk_count = chunk_count + added.chunks, term_count = term_count + added.terms
  FROM (SELECT count(*) AS chunks, coalesce(sum(term_count), 0) AS terms FROM added_chunks) AS added
  WHERE added.chunks > 0;
  RETURN NULL;
END $$;
CREATE TRIGGER kb_chunks_added AFTER INSERT ON kb_chunks
  REFERENCING NEW TABLE AS added_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION kb_count_added_chunks();

CREATE FUNCTION kb_count_removed_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE kb_statistics
  SET chunk_count = chunk_count - removed.chunks, term_count = term_count - removed.terms
  FROM (SELECT count(*) AS chunks, coalesce(sum(term_count), 0) AS terms FROM removed_chunks) AS removed
  WHERE removed.chunks > 0;
  RETURN NULL;
END $$;
CREATE TRIGGER kb_chunks_removed AFTER DELETE ON kb_chunks
  REFERENCING OLD TABLE AS removed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION kb_count_removed_chunks();
`;

// The outbox of an OpenSearch index kept beside PostgreSQL (YEOUL_SEARCH_URL with DATABASE_URL):
// one row per document whose index entries are, or were, written. Version 101 rather than an
// edit of 100, because databases at 100 exist and migrations never change once applied.
// Tickets (OpenSearch's external versions) come from one clock row shared by every instance,
// so they grow across instances, clocks set back, and a document deleted then written again.
const indexOutboxSql = `
CREATE TABLE kb_index_state (
  document_id text COLLATE "C" PRIMARY KEY,
  ticket bigint NOT NULL,
  pending text CHECK (pending IN ('index', 'delete')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  updated_at bigint NOT NULL
);
CREATE INDEX kb_index_state_pending ON kb_index_state (updated_at, document_id)
  WHERE pending IS NOT NULL;

CREATE TABLE kb_ticket_clock (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  ticket bigint NOT NULL
);
INSERT INTO kb_ticket_clock (singleton, ticket) VALUES (true, 0);
`;

/**
 * The knowledge base's PostgreSQL schema (versions 100–199 are the knowledge module's):
 * documents, chunks with optional `real[]` embeddings, a postings table with per-chunk
 * lengths and corpus totals for BM25, and (101) the outbox of an OpenSearch index beside it. pgvector's column and index are added at run time, when
 * the extension can be created and the embedding size is known.
 */
export const knowledgeMigrations: readonly Migration[] = [
  { version: 100, name: 'knowledge_base', sql: knowledgeBaseSql },
  { version: 101, name: 'knowledge_index_outbox', sql: indexOutboxSql },
];
