import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ragChunkListSchema,
  ragChunkQuerySchema,
  ragCollectionCreateSchema,
  ragCollectionListSchema,
  ragCollectionParamsSchema,
  ragCollectionSchema,
  ragCollectionUpdateSchema,
  ragDocumentInputSchema,
  ragDocumentListQuerySchema,
  ragDocumentListSchema,
  ragDocumentParamsSchema,
  ragDocumentPutAnswerSchema,
  ragSearchResultSchema,
  ragSearchSchema,
  ragSyncResultSchema,
} from '../../../../shared/rag-api.js';
import { GatewayError } from '../../gateway-error.js';
import { keyStatus } from '../../keys/key-view.js';
import { decodeChunkCursor, encodeChunkCursor } from '../../rag/chunk-cursor.js';
import { selectContext } from '../../rag/context-selection.js';

/**
 * `/internal/rag/*`: collections (create, list, read, change, delete), their documents (ingest text or
 * Markdown, list, delete) and chunks, a sync from the followed store branch, and a search that shows
 * what a given key would retrieve.
 */
export const ragRoutes: FastifyPluginAsync = async (app) => {
  const { rag, ragAdmin, keys } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { index } = rag;
  const actor = (request: { id: string }) => ({ requestId: request.id });

  typed.get('/rag/collections', { schema: { response: { 200: ragCollectionListSchema } } }, async () => ({
    data: index.list(),
  }));

  typed.post(
    '/rag/collections',
    { schema: { body: ragCollectionCreateSchema, response: { 201: ragCollectionSchema } } },
    async (request, reply) => reply.code(201).send(ragAdmin.createCollection(request.body, actor(request))),
  );

  typed.get(
    '/rag/collections/:name',
    { schema: { params: ragCollectionParamsSchema, response: { 200: ragCollectionSchema } } },
    async (request) => index.get(request.params.name),
  );

  typed.patch(
    '/rag/collections/:name',
    {
      schema: {
        params: ragCollectionParamsSchema,
        body: ragCollectionUpdateSchema,
        response: { 200: ragCollectionSchema },
      },
    },
    async (request) => ragAdmin.updateCollection(request.params.name, request.body, actor(request)),
  );

  typed.delete('/rag/collections/:name', { schema: { params: ragCollectionParamsSchema } }, async (request, reply) => {
    ragAdmin.deleteCollection(request.params.name, actor(request));
    return reply.code(204).send();
  });

  typed.post(
    '/rag/collections/:name/sync',
    { schema: { params: ragCollectionParamsSchema, response: { 200: ragSyncResultSchema } } },
    async (request) => ragAdmin.sync(request.params.name, actor(request)),
  );

  typed.get(
    '/rag/collections/:name/documents',
    {
      schema: {
        params: ragCollectionParamsSchema,
        querystring: ragDocumentListQuerySchema,
        response: { 200: ragDocumentListSchema },
      },
    },
    async (request) => ragAdmin.documents(request.params.name, request.query),
  );

  typed.post(
    '/rag/collections/:name/documents',
    {
      schema: {
        params: ragCollectionParamsSchema,
        body: ragDocumentInputSchema,
        response: { 201: ragDocumentPutAnswerSchema },
      },
    },
    async (request, reply) => {
      return reply.code(201).send(await ragAdmin.ingest(request.params.name, request.body, actor(request)));
    },
  );

  typed.delete(
    '/rag/collections/:name/documents/:id',
    { schema: { params: ragDocumentParamsSchema } },
    async (request, reply) => {
      ragAdmin.deleteDocument(request.params.name, request.params.id, actor(request));
      return reply.code(204).send();
    },
  );

  typed.get(
    '/rag/collections/:name/chunks',
    {
      schema: {
        params: ragCollectionParamsSchema,
        querystring: ragChunkQuerySchema,
        response: { 200: ragChunkListSchema },
      },
    },
    async (request) => {
      const { document, limit, after } = request.query;
      // An unknown collection is a 404 whatever the cursor: the path is resolved before the query.
      index.row(request.params.name);
      const page = index.chunks(request.params.name, {
        documentId: document,
        after: after === undefined ? undefined : decodeChunkCursor(after),
        limit,
      });
      return { data: page.chunks, next_cursor: page.next === null ? null : encodeChunkCursor(page.next) };
    },
  );

  typed.post(
    '/rag/search',
    { schema: { body: ragSearchSchema, response: { 200: ragSearchResultSchema } } },
    async (request) => {
      const { query, key_id: keyId, top_k: topK } = request.body;
      const key = keyId === undefined ? null : keys.get(keyId);
      if (key === undefined) throw new GatewayError('not_found', `key_id '${keyId}' is not an API key of this gateway`);
      const names = request.body.collections ?? index.names();
      // A revoked or expired key is refused before any retrieval: it reads nothing.
      if (key !== null && keyStatus(key, Date.now()) !== 'active')
        return { collections: [], denied: [...new Set(names)], hits: [] };
      // What the key would be sent: the same selection as a request's, redaction and budget included.
      const selection = await selectContext(rag, key, names, query, {
        topK: topK ?? rag.settings.top_k,
        requestId: request.id,
        purpose: 'search',
      });
      const hits = selection.passages.map((passage) => passage.hit);
      const headings = rag.redact(hits.map((hit) => hit.heading ?? '')).texts;
      return {
        collections: [...selection.collections],
        denied: [...selection.denied],
        hits: selection.passages.map(({ hit, text }, index) => ({
          ...hit,
          text,
          heading: hit.heading === null ? null : headings[index]!,
        })),
      };
    },
  );
};
