import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { queryParams } from '../../../shared/query-params.js';
import { ragReadableCollectionListSchema } from '../../../shared/rag-key-api.js';
import { beginPipeline } from '../pipeline/pipeline.js';
import { contextOf } from '../pipeline/request-context.js';
import { mayRead } from '../rag/access.js';

/**
 * `GET /v1/rag/collections`: the collections the calling API key may read (docs/rag.md, "Who may read
 * a collection"), so a team member sees what their key retrieves from without asking an admin. Any
 * valid key, no endpoint scope (authenticated by the pipeline, as `/v1/models`): each collection is
 * listed only when the key holds its `rag:` scope and passes its access lists, so a key without a
 * `rag` scope gets an empty list. Names, descriptions, document counts and update times only: no
 * documents, no access lists.
 */
export const ragKeyCollectionsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/v1/rag/collections',
    {
      onRequest: beginPipeline('rag_collections', '/v1/rag/collections', services),
      schema: { querystring: queryParams({}), response: { 200: ragReadableCollectionListSchema } },
    },
    async (request) => {
      const principal = contextOf(request).principal;
      // Passthrough callers (a provider's own key) are not read here: only embeddings may take one.
      const key = principal?.kind === 'key' ? principal.key.row : undefined;
      const readable =
        key === undefined
          ? []
          : services.rag.index.repository.listCollections().filter((collection) => mayRead(key, collection));
      return {
        object: 'list' as const,
        data: readable.map((collection) => ({
          object: 'rag.collection' as const,
          name: collection.name,
          description: collection.description,
          documents: collection.documents,
          updated_at: new Date(collection.updatedAt).toISOString(),
        })),
      };
    },
  );
};
