import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkpointCreateRequestSchema,
  checkpointCreateResponseSchema,
  checkpointDeleteRequestSchema,
  checkpointListQuerySchema,
  checkpointListResponseSchema,
  emptyResponseSchema,
} from '../../../shared/store-api.js';
import { refuseCheckpointMove } from '../store-auth.js';
import { answerOnce } from './idempotent-answer.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/** POST, DELETE and GET (Gatehouse extension) /v1/checkpoints. */
export const checkpointRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/checkpoints',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: {
        body: checkpointCreateRequestSchema,
        response: { 200: checkpointCreateResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { scope, name, description, revision_id, expected_revision, create_only, expected_checkpoint_revision } =
        request.body;
      return answerOnce(request, reply, engine, () => {
        // Decided in the same synchronous run as the write (in its transaction when keyed): no write comes between.
        if (!create_only)
          refuseCheckpointMove(request.storeGrant, name, () => engine.checkpointExists(scope.namespace, name));
        return runOperation(metrics, 'checkpoint_create', () =>
          engine.createCheckpoint(scope, name, description, {
            revision: revision_id,
            expectedRevision: expected_revision,
            createOnly: create_only,
            expectedCheckpointRevision: expected_checkpoint_revision,
          }),
        );
      });
    },
  );

  app.delete(
    '/v1/checkpoints',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: checkpointDeleteRequestSchema, response: { 200: emptyResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { namespace, name, expected_revision } = request.body;
      return answerOnce(request, reply, engine, () => {
        runOperation(metrics, 'checkpoint_delete', () => engine.deleteCheckpoint(namespace, name, expected_revision));
        return {};
      });
    },
  );

  app.get(
    '/v1/checkpoints',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: {
        querystring: checkpointListQuerySchema,
        response: { 200: checkpointListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, limit, after } = request.query;
      return runOperation(metrics, 'checkpoint_list', () => engine.checkpoints(namespace, { limit, after }));
    },
  );
};
