import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { queryParams } from '../../../shared/query-params.js';
import { ragReadableCollectionListSchema } from '../../../shared/rag-key-api.js';
import { unauthorized } from '../../http/errors.js';
import { bearerToken, missingBearerMessage, secretsEqual } from '../../http/secrets.js';
import { KEY_REJECTION_MESSAGES, type AuthenticatedKey } from '../keys/keys.service.js';
import { mayRead } from '../rag/access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a `GET /v1/rag/collections` was made with, once authenticated. */
    ragReader: AuthenticatedKey | null;
  }
}

/**
 * `GET /v1/rag/collections`: the collections the calling API key may read (docs/rag.md, "Who may read
 * a collection"), so a team member sees what their key retrieves from without asking an admin. Any
 * valid key, no endpoint scope: each collection is listed only when the key holds its `rag:` scope and
 * passes its access lists, so a key without a `rag` scope gets an empty list. Names, descriptions,
 * document counts and update times only: no documents, no access lists.
 */
export const ragKeyCollectionsRoutes: FastifyPluginAsync = async (app) => {
  const { keys, masterKey, rag } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.decorateRequest('ragReader', null);

  /** Finds the calling key before anything else is read, as the inference endpoints do. */
  const authenticate = async (request: FastifyRequest): Promise<void> => {
    const secret = bearerToken(request.headers.authorization);
    if (secret === undefined)
      throw unauthorized(missingBearerMessage('API key', 'API_KEY', request.headers.authorization));
    const check = keys.check(secret);
    if (!check.ok) {
      if (secretsEqual(secret, masterKey))
        throw unauthorized(
          'the master key is for /internal/* only: GET /internal/rag/collections lists every collection',
        );
      throw unauthorized(KEY_REJECTION_MESSAGES[check.reason]);
    }
    keys.noteUsed(check.key.row.id);
    request.ragReader = check.key;
  };

  typed.get(
    '/v1/rag/collections',
    {
      config: { errorEnvelope: 'openai' },
      onRequest: authenticate,
      schema: { querystring: queryParams({}), response: { 200: ragReadableCollectionListSchema } },
    },
    async (request) => {
      const key = request.ragReader!.row;
      const readable = rag.index.repository.listCollections().filter((collection) => mayRead(key, collection));
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
