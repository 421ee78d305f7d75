import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applyResponseSchema, restoreRequestSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesAsAsked } from './lean-changes.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/**
 * POST /v1/restore: a new revision copying another branch's, revision's or checkpoint's state, or with
 * `keys` only those documents of it.
 */
export const restoreRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/restore',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: restoreRequestSchema, response: { 200: applyResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const {
        scope,
        from_branch: fromBranch,
        from_revision: fromRevision,
        from_checkpoint: fromCheckpoint,
        message,
        keys,
      } = request.body;
      const expectedRevision = request.body.expected_revision;
      return answerOnce(request, reply, engine, () => {
        const result = runOperation(
          metrics,
          'restore',
          () => engine.restore(scope, { fromBranch, fromRevision, fromCheckpoint, message, expectedRevision, keys }),
          changesOutcome,
        );
        return changesAsAsked(request.body.contents, visibleChanges(request, result));
      });
    },
  );
};
