import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { diffRequestSchema, diffResponseSchema } from '../../../shared/store-api.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/** POST /v1/diff: a dry run; needs only the read permission since nothing is written. */
export const diffRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/diff',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: { body: diffRequestSchema, response: { 200: diffResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { scope, revision_id: revision, checkpoint_name: checkpoint, branch_name: branch } = request.body;
      const { documents, mode, keys } = request.body;
      const from = request.body.from && {
        revision: request.body.from.revision_id,
        checkpoint: request.body.from.checkpoint_name,
        branch: request.body.from.branch_name,
      };
      return runOperation(metrics, 'diff', () =>
        engine.diff(scope, { revision, checkpoint, branch, from, documents, mode, keys }),
      );
    },
  );
};
