import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mergeRequestSchema, mergeResponseSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/** POST /v1/merge (Gatehouse extension): a new revision merging another branch's head into the scope's branch. */
export const mergeRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/merge',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: mergeRequestSchema, response: { 200: mergeResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const {
        scope,
        from_branch: fromBranch,
        message,
        expected_revision: expectedRevision,
        expected_from_revision: expectedFromRevision,
      } = request.body;
      return answerOnce(request, reply, engine, () => {
        const result = runOperation(
          metrics,
          'merge',
          () => engine.merge(scope, { fromBranch, message, expectedRevision, expectedFromRevision }),
          changesOutcome,
        );
        return visibleChanges(request, result);
      });
    },
  );
};
