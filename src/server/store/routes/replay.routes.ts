import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cherryPickRequestSchema,
  cherryPickResponseSchema,
  revertRequestSchema,
  revertResponseSchema,
} from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { changesAsAsked } from './lean-changes.js';
import { changesOutcome, errorResponses, runOperation, visibleChanges, type StoreRouteDeps } from './operation.js';

/**
 * POST /v1/revert and POST /v1/cherry-pick (Gatehouse extensions): a new revision undoing one earlier
 * revision of the branch, or making on the branch what one revision of another branch changed; with
 * `dry_run`, what it would write (write permission, as gc's dry run needs gc's).
 */
export const replayRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  const routes = [
    { path: '/v1/revert', operation: 'revert', body: revertRequestSchema, answer: revertResponseSchema },
    {
      path: '/v1/cherry-pick',
      operation: 'cherry_pick',
      body: cherryPickRequestSchema,
      answer: cherryPickResponseSchema,
    },
  ] as const;
  for (const { path, operation, body, answer } of routes)
    app.post(
      path,
      {
        config: { storeAuth: { verb: 'write' }, idempotent: true },
        schema: { body, response: { 200: answer, ...errorResponses } },
      },
      async (request, reply) => {
        const {
          scope,
          revision_id: revision,
          message,
          expected_revision: expectedRevision,
          dry_run: dryRun = false,
        } = request.body;
        const options = { revision, message, expectedRevision };
        const run = () => {
          const result = runOperation(
            metrics,
            operation,
            () =>
              operation === 'revert'
                ? engine.revert(scope, options, dryRun)
                : engine.cherryPick(scope, options, dryRun),
            // A dry run changes nothing, so the metrics count it as a no-op whatever it would write.
            (r) => (dryRun ? { noop: true, changed: 0 } : changesOutcome(r)),
          );
          return changesAsAsked(request.body.contents, visibleChanges(request, result));
        };
        // Nor does it keep an answer for an Idempotency-Key: a retry of the real write must still write.
        return dryRun ? run() : answerOnce(request, reply, engine, run);
      },
    );
};
