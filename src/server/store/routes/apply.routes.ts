import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applyRequestSchema, applyResponseSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesAsAsked } from './lean-changes.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/** POST /v1/apply: create, update or delete documents. */
export const applyRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/apply',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: applyRequestSchema, response: { 200: applyResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { scope, documents, message, mode, expected_revision: expectedRevision } = request.body;
      return answerOnce(request, reply, engine, () => {
        const result = runOperation(
          metrics,
          'apply',
          () => engine.applyDocuments(scope, documents, { message, mode, expectedRevision }),
          changesOutcome,
        );
        return changesAsAsked(request.body.contents, visibleChanges(request, result));
      });
    },
  );
};
