import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applyResponseSchema, revertRequestSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/** POST /v1/revert (Gatehouse extension): a new revision undoing one earlier revision of the branch. */
export const revertRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/revert',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: revertRequestSchema, response: { 200: applyResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { scope, revision_id: revision, message, expected_revision: expectedRevision } = request.body;
      return answerOnce(request, reply, engine, () => {
        const result = runOperation(
          metrics,
          'revert',
          () => engine.revert(scope, { revision, message, expectedRevision }),
          changesOutcome,
        );
        return visibleChanges(request, result);
      });
    },
  );
};
