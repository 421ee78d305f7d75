import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mergeRequestSchema, mergeResponseSchema } from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesAsAsked } from './lean-changes.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/**
 * POST /v1/merge (Gatehouse extension): a new revision merging another branch's head into the scope's
 * branch, its conflicts settled by `strategy` and `resolve` when given, or with `dry_run` what it would
 * write (write permission, as gc's dry run needs gc's).
 */
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
        dry_run: dryRun = false,
        strategy,
        resolve,
      } = request.body;
      const run = () => {
        const result = runOperation(
          metrics,
          'merge',
          () =>
            engine.merge(
              scope,
              { fromBranch, message, expectedRevision, expectedFromRevision, strategy, resolve },
              dryRun,
            ),
          // A dry run changes nothing, so the metrics count it as a no-op whatever it would take.
          (r) => (dryRun ? { noop: true, changed: 0 } : changesOutcome(r)),
        );
        return changesAsAsked(request.body.contents, visibleChanges(request, result));
      };
      // Nor does it keep an answer for an Idempotency-Key: a retry of the real merge must still write.
      return dryRun ? run() : answerOnce(request, reply, engine, run);
    },
  );
};
