import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { namespaceListQuerySchema, namespaceListResponseSchema } from '../../../shared/store-api.js';
import { grantCovers } from '../store-auth.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/** GET /v1/namespaces (Gatehouse extension): namespaces the caller's token may read, with their sizes. */
export const namespaceRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/namespaces',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: {
        querystring: namespaceListQuerySchema,
        response: { 200: namespaceListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { limit, after } = request.query;
      const visible = grantCovers(request.storeGrant);
      return runOperation(metrics, 'namespace_list', () => engine.namespaces({ limit, after }, visible));
    },
  );
};
