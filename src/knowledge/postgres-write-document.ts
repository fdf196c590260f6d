import type { PostgresClient } from '../core/index.ts';
import { indexTerms } from './analyzer.ts';
import { documentValues } from './document-values.ts';
import { keywordTokens } from './keyword-tokens.ts';
import { chunkPostings } from './postgres-keyword-index.ts';
import { vectorLiteral } from './postgres-vector-index.ts';
import type { Chunk, StoredDocument } from './types.ts';

const upsertDocumentSql = `
INSERT INTO kb_documents (id, title, source, content_hash, metadata, chunk_count, updated_at)
VALUES ($1, $2, $3, $4, $5::json, $6, $7)
ON CONFLICT (id) DO UPDATE SET title = excluded.title, source = excluded.source,
  content_hash = excluded.content_hash, metadata = excluded.metadata,
  chunk_count = excluded.chunk_count, updated_at = excluded.updated_at`;

const insertChunksSql = `
INSERT INTO kb_chunks
  (id, document_id, position, heading, text, token_count, term_count, embedding, embedding_norm)
SELECT id, document_id, position, heading, text, token_count, term_count, embedding,
  (SELECT sqrt(sum(value::float8 * value)) FROM unnest(embedding) AS value)
FROM (
  SELECT source.*, source.embedding_text::real[] AS embedding
  FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[])
    AS source (id, document_id, position, heading, text, token_count, term_count, embedding_text)
) AS added
RETURNING rowid, id`;

const insertPostingsSql = `
INSERT INTO kb_postings (term, chunk_rowid, title_frequency, body_frequency, chunk_term_count)
SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::int[])`;

/**
 * Inside a transaction: stores `document` in place of any earlier version, with its chunks,
 * their postings (title tokens in every chunk, as the SQLite index keeps them) and their
 * vectors when given. Three statements whatever the number of chunks (arrays, `unnest`).
 */
export async function writeDocument(
  client: PostgresClient,
  document: StoredDocument,
  chunks: Chunk[],
  vectors: number[][] | undefined,
): Promise<void> {
  await client.query(upsertDocumentSql, [...documentValues(document, chunks.length)]);
  // Cascades to the postings; the corpus statistics follow by trigger.
  await client.query('DELETE FROM kb_chunks WHERE document_id = $1', [document.id]);
  if (chunks.length === 0) return;
  const titleTokens = keywordTokens(indexTerms(document.title));
  const bodies = chunks.map((chunk) =>
    keywordTokens(indexTerms(`${chunk.heading}\n${chunk.text}`)),
  );
  const { rows } = await client.query<{ rowid: string; id: string }>(insertChunksSql, [
    chunks.map((chunk) => chunk.id),
    chunks.map((chunk) => chunk.documentId),
    chunks.map((chunk) => chunk.position),
    chunks.map((chunk) => chunk.heading),
    chunks.map((chunk) => chunk.text),
    chunks.map((chunk) => chunk.tokenCount),
    bodies.map((tokens) => titleTokens.length + tokens.length),
    chunks.map((_, index) => {
      const vector = vectors?.[index];
      return vector ? vectorLiteral(vector) : null;
    }),
  ]);
  const rowids = new Map(rows.map((row) => [row.id, row.rowid]));
  const columns = {
    terms: [] as string[],
    rowids: [] as string[],
    title: [] as number[],
    body: [] as number[],
    length: [] as number[],
  };
  chunks.forEach((chunk, index) => {
    const rowid = rowids.get(chunk.id) as string;
    const body = bodies[index] ?? [];
    for (const [term, frequency] of chunkPostings(titleTokens, body)) {
      columns.terms.push(term);
      columns.rowids.push(rowid);
      columns.title.push(frequency.title);
      columns.body.push(frequency.body);
      columns.length.push(titleTokens.length + body.length);
    }
  });
  if (columns.terms.length > 0) await client.query(insertPostingsSql, Object.values(columns));
}
