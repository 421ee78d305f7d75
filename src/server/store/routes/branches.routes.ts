import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  branchCreateRequestSchema,
  branchCreateResponseSchema,
  branchListQuerySchema,
  branchListResponseSchema,
} from '../../../shared/store-api.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/** GET /v1/branches (list, paged) and POST /v1/branches (create from the scope's branch). */
export const branchRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/branches',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: { querystring: branchListQuerySchema, response: { 200: branchListResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { namespace, branch, limit, after } = request.query;
      return runOperation(metrics, 'branch_list', () => engine.branches({ namespace, branch }, { limit, after }));
    },
  );

  app.post(
    '/v1/branches',
    {
      config: { storeAuth: { verb: 'write' } },
      schema: { body: branchCreateRequestSchema, response: { 200: branchCreateResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { scope, name, from_revision: fromRevision, from_checkpoint: fromCheckpoint } = request.body;
      return runOperation(metrics, 'branch_create', () =>
        engine.createBranch(scope, name, { fromRevision, fromCheckpoint }),
      );
    },
  );
};
