import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  logEntrySchema,
  logQuerySchema,
  logResponseSchema,
  revisionParamsSchema,
  revisionQuerySchema,
} from '../../../shared/store-api.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/** GET /v1/log (a branch's history) and GET /v1/revisions/:id (one revision; Gatehouse extension). */
export const logRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/log',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: { querystring: logQuerySchema, response: { 200: logResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { namespace, branch, limit, after, key } = request.query;
      return runOperation(metrics, 'log', () => engine.log({ namespace, branch }, { limit, after }, key));
    },
  );

  app.get(
    '/v1/revisions/:id',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: {
        params: revisionParamsSchema,
        querystring: revisionQuerySchema,
        response: { 200: logEntrySchema, ...errorResponses },
      },
    },
    async (request) =>
      runOperation(metrics, 'revision', () => engine.revision(request.query.namespace, request.params.id)),
  );
};
