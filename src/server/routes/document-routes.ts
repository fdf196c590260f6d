import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatOfPath, type IngestResult } from '../../knowledge/index.ts';
import {
  documentListSchema,
  documentsBody,
  documentsCreatedSchema,
  searchBody,
  searchResponseSchema,
} from '../../protocol/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { errorResponse, HttpError } from '../http/http-error.ts';
import { documentParams } from '../http/schemas.ts';
import type { RouteContext } from './route-context.ts';

/** Largest JSON body of POST /api/documents (uploads have their own per-file limit). */
export const documentsBodyLimit = 64 * 1024 * 1024;
/** Largest file of a multipart upload. */
export const uploadFileLimit = 20 * 1024 * 1024;
/** Most files in one multipart upload. */
export const uploadFilesLimit = 20;

const uploadFields = z.strictObject({
  id: z.string().min(1).max(200).optional(),
  title: z.string().max(500).optional(),
  metadata: z
    .string()
    .transform((text, context) => {
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          return value as Record<string, unknown>;
        }
      } catch {}
      context.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    })
    .optional(),
});

const fileFields = new Set(['file', 'files']);

/** A multipart upload's parts, as /openapi.json shows them. */
const uploadSchema = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary' },
    id: { type: 'string' },
    title: { type: 'string' },
    metadata: { type: 'string', description: 'a JSON object' },
  },
};

/** POST/GET /api/documents (JSON or a multipart upload), DELETE /api/documents/:id, POST /api/search. */
export function documentRoutes(context: RouteContext): RouteGroup {
  const knowledge = context.runtime.knowledge;

  const addDocuments = defineRoute({
    method: 'POST',
    path: '/api/documents',
    scope: 'yeoul:documents',
    operationId: 'addDocuments',
    summary: 'Add documents (JSON) or upload files (multipart: file, id?, title?, metadata?)',
    request: { body: documentsBody, bodyContent: { 'multipart/form-data': uploadSchema } },
    // A whole corpus may come in one request: this route takes far bigger bodies than the rest.
    bodyLimit: documentsBodyLimit,
    responses: { 201: { description: 'added', schema: documentsCreatedSchema } },
    errors: [400, 401, 413, 415, 503],
    handler: async (request, reply, input) => {
      if (request.isMultipart()) {
        const result = await ingestUpload(context, request);
        return reply.code(201).send(result);
      }
      const body = input.body();
      const result = await knowledge.addDocuments(body.documents);
      return reply.code(201).send({
        ids: result.ids,
        chunks: result.chunks,
        ...(result.failed.length > 0
          ? {
              failed: result.failed.map((failure) => ({
                file: failure.source,
                error: failure.error,
              })),
            }
          : {}),
      });
    },
  });

  const listDocuments = defineRoute({
    method: 'GET',
    path: '/api/documents',
    scope: 'yeoul:read',
    operationId: 'listDocuments',
    summary: 'The stored documents',
    responses: { 200: { description: 'documents', schema: documentListSchema } },
    handler: async () => ({
      documents: (await knowledge.listDocuments()).map((document) => ({
        id: document.id,
        title: document.title,
        chunks: document.chunkCount,
        metadata: document.metadata,
        updatedAt: new Date(document.updatedAt).toISOString(),
      })),
    }),
  });

  const deleteDocument = defineRoute({
    method: 'DELETE',
    path: '/api/documents/:id',
    scope: 'yeoul:documents',
    operationId: 'deleteDocument',
    summary: 'Delete a document and its passages',
    request: { params: documentParams },
    responses: { 204: { description: 'deleted' } },
    errors: [401, 404],
    handler: async (_request, reply, input) => {
      const { id } = input.params();
      if (!(await knowledge.deleteDocument(id)))
        throw new HttpError({ status: 404, code: 'not_found', message: `no document "${id}"` });
      return reply.code(204).send();
    },
  });

  const searchKnowledge = defineRoute({
    method: 'POST',
    path: '/api/search',
    scope: 'yeoul:read',
    operationId: 'searchKnowledge',
    summary: 'The passages that best answer a query',
    request: { body: searchBody },
    responses: { 200: { description: 'hits, best first', schema: searchResponseSchema } },
    errors: [400, 401, 503],
    handler: async (_request, _reply, input) => {
      const body = input.body();
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
    },
  });

  return {
    tag: { name: 'knowledge', description: 'The knowledge base: documents, uploads, search' },
    routes: [addDocuments, listDocuments, deleteDocument, searchKnowledge],
  };
}

/**
 * A multipart upload: files (field `file`) with optional `id`, `title` and `metadata`
 * fields; any other field is refused. Each file is decoded and stored under its id (the
 * `id` field, else its own name), so the same upload twice changes nothing.
 */
async function ingestUpload(context: RouteContext, request: FastifyRequest) {
  const fields: Record<string, string> = {};
  const files: Array<{ name: string; data: Buffer }> = [];
  for await (const part of request.parts() as AsyncIterable<Multipart>) {
    if (part.type === 'file') {
      if (!fileFields.has(part.fieldname)) {
        throw badUpload(`unexpected file field "${part.fieldname}": send files as "file"`);
      }
      const name = part.filename.split(/[\\/]/).at(-1) || 'upload.txt';
      if (formatOfPath(name) === undefined) {
        throw new HttpError({
          status: 415,
          code: 'document_unsupported',
          message: `"${name}": upload .txt, .md, .html or .pdf files`,
        });
      }
      files.push({ name, data: await part.toBuffer() });
    } else {
      if (fields[part.fieldname] !== undefined) {
        throw badUpload(`the field "${part.fieldname}" is given twice`);
      }
      fields[part.fieldname] = String(part.value);
    }
  }
  const checked = uploadFields.safeParse(fields);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `"${key}"`).join(', ')}: uploads take file, id, title and metadata`
        : `${issue.path.join('.')}: ${issue.message}`,
    );
    throw badUpload(problems.join('; '));
  }
  if (files.length === 0) throw badUpload('no file in the upload: send it in the field "file"');
  const { id, title, metadata } = checked.data;
  if (files.length > 1 && (id !== undefined || title !== undefined)) {
    throw badUpload('`id` and `title` name one document: upload one file with them');
  }
  const total: IngestResult = { ids: [], chunks: 0, unchanged: [], failed: [] };
  for (const file of files) {
    try {
      const result = await context.runtime.knowledge.addFile({
        ...file,
        ...(id === undefined ? {} : { id }),
        ...(title === undefined ? {} : { title }),
        ...(metadata === undefined ? {} : { metadata }),
      });
      total.ids.push(...result.ids);
      total.chunks += result.chunks;
      total.unchanged.push(...result.unchanged);
    } catch (error) {
      // One file: its own error is the answer. Several: the others still count.
      if (files.length === 1) throw error;
      total.failed.push({ source: file.name, error: errorResponse(error).body.error.message });
    }
  }
  if (total.ids.length === 0) {
    throw new HttpError({
      status: 415,
      code: 'document_unsupported',
      message: total.failed.map((failure) => failure.error).join('; '),
    });
  }
  return {
    ids: total.ids,
    chunks: total.chunks,
    unchanged: total.unchanged,
    failed: total.failed.map((failure) => ({ file: failure.source, error: failure.error })),
  };
}

function badUpload(message: string): HttpError {
  return new HttpError({ status: 400, code: 'invalid_request', message });
}
