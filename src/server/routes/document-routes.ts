import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type {} from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { formatOfPath } from '../../knowledge/index.ts';
import { HttpError } from '../http-error.ts';
import { documentsBody, idParams, parseWith, searchBody } from '../schemas.ts';
import type { RouteContext } from './route-context.ts';

/** Largest JSON body of POST /api/documents (uploads have their own per-file limit). */
const documentsBodyLimit = 64 * 1024 * 1024;

/** POST/GET /api/documents (JSON or a multipart upload), DELETE /api/documents/:id, POST /api/search. */
export function registerDocumentRoutes(app: FastifyInstance, context: RouteContext): void {
  const knowledge = context.runtime.knowledge;

  // A whole corpus may come in one request: this route takes far bigger bodies than the rest.
  app.post('/api/documents', { bodyLimit: documentsBodyLimit }, async (request, reply) => {
    if (request.isMultipart()) {
      const directory = mkdtempSync(join(tmpdir(), 'yeoul-upload-'));
      try {
        for await (const part of request.files()) {
          const name = basename(part.filename || 'upload.txt');
          if (formatOfPath(name) === undefined) {
            throw new HttpError({
              status: 415,
              code: 'document_unsupported',
              message: `"${name}": upload .txt, .md, .html or .pdf files`,
            });
          }
          writeFileSync(join(directory, name), await part.toBuffer());
        }
        const result = await knowledge.ingestPaths([directory]);
        if (result.failed.length > 0 && result.ids.length === 0) {
          throw new HttpError({
            status: 415,
            code: 'document_unsupported',
            message: result.failed.map((failure) => failure.error).join('; '),
          });
        }
        return reply.code(201).send({
          ids: result.ids,
          chunks: result.chunks,
          failed: result.failed.map((failure) => ({
            file: basename(failure.source),
            error: failure.error,
          })),
        });
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    }
    const body = parseWith(documentsBody, request.body);
    const result = await knowledge.addDocuments(body.documents);
    return reply.code(201).send({ ids: result.ids, chunks: result.chunks });
  });

  app.get('/api/documents', async () => ({
    documents: (await knowledge.listDocuments()).map((document) => ({
      id: document.id,
      title: document.title,
      chunks: document.chunkCount,
      metadata: document.metadata,
      updatedAt: new Date(document.updatedAt).toISOString(),
    })),
  }));

  app.delete('/api/documents/:id', async (request, reply) => {
    const { id } = parseWith(idParams, request.params);
    if (!(await knowledge.deleteDocument(id)))
      throw new HttpError({ status: 404, code: 'not_found', message: `no document "${id}"` });
    return reply.code(204).send();
  });

  app.post('/api/search', async (request) => {
    const body = parseWith(searchBody, request.body);
    const hits = await knowledge.search(body.query, { k: body.k ?? 5 });
    return {
      hits: hits.map((hit) => ({
        documentId: hit.documentId,
        chunkId: hit.chunkId,
        title: hit.title,
        text: hit.text,
        score: hit.score,
        metadata: hit.metadata,
      })),
    };
  });
}
