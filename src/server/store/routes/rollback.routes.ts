import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applyResponseSchema, rollbackRequestSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesAsAsked } from './lean-changes.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/** POST /v1/rollback: a new revision returning the branch to an earlier state. */
export const rollbackRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/rollback',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: rollbackRequestSchema, response: { 200: applyResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const {
        scope,
        revision_id: revision,
        checkpoint_name: checkpoint,
        message,
        expected_revision: expectedRevision,
      } = request.body;
      return answerOnce(request, reply, engine, () => {
        const result = runOperation(
          metrics,
          'rollback',
          () => engine.rollback(scope, { revision, checkpoint, message, expectedRevision }),
          changesOutcome,
        );
        return changesAsAsked(request.body.contents, visibleChanges(request, result));
      });
    },
  );
};
