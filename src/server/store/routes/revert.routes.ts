import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { revertRequestSchema, revertResponseSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/**
 * POST /v1/revert (Gatehouse extension): a new revision undoing one earlier revision of the branch, or
 * with `dry_run` what it would write (write permission, as gc's dry run needs gc's).
 */
export const revertRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/revert',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: revertRequestSchema, response: { 200: revertResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const {
        scope,
        revision_id: revision,
        message,
        expected_revision: expectedRevision,
        dry_run: dryRun = false,
      } = request.body;
      const run = () => {
        const result = runOperation(
          metrics,
          'revert',
          () => engine.revert(scope, { revision, message, expectedRevision }, dryRun),
          // A dry run changes nothing, so the metrics count it as a no-op whatever it would undo.
          (r) => (dryRun ? { noop: true, changed: 0 } : changesOutcome(r)),
        );
        return visibleChanges(request, result);
      };
      // Nor does it keep an answer for an Idempotency-Key: a retry of the real revert must still write.
      return dryRun ? run() : answerOnce(request, reply, engine, run);
    },
  );
};
