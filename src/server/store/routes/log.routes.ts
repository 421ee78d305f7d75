import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  logQuerySchema,
  logResponseSchema,
  revisionParamsSchema,
  revisionQuerySchema,
  revisionResponseSchema,
} from '../../../shared/store-api.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/**
 * GET /v1/log (a branch's history) and GET /v1/revisions/:id (one revision, or a page of its changes;
 * Gatehouse extension).
 */
export const logRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/log',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: { querystring: logQuerySchema, response: { 200: logResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { namespace, branch, limit, after, key, contents } = request.query;
      const options = { key, contents: contents === 'true' };
      return runOperation(metrics, 'log', () => engine.log({ namespace, branch }, { limit, after }, options));
    },
  );

  app.get(
    '/v1/revisions/:id',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: {
        params: revisionParamsSchema,
        querystring: revisionQuerySchema,
        response: { 200: revisionResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, limit, after } = request.query;
      const page = limit > 0 || after !== '' ? { limit, after } : undefined;
      return runOperation(metrics, 'revision', () => engine.revision(namespace, request.params.id, page));
    },
  );
};
