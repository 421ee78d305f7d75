import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gcRequestSchema, gcResponseSchema } from '../../../shared/store-api.js';
import { administeredNamespaces } from '../store-auth.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/**
 * POST /v1/gc: delete old revisions of every namespace the caller may administer (or of the one named
 * in `namespace`), or with `dry_run` count them (admin permission). A token limited to `team/*` prunes
 * and counts only under `team/`.
 */
export const gcRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/gc',
    {
      config: { storeAuth: { verb: 'admin' } },
      schema: { body: gcRequestSchema.nullish(), response: { 200: gcResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const dryRun = request.body?.dry_run ?? false;
      const covers = administeredNamespaces(request.storeGrant);
      // A dry run changes nothing, so the metrics count it as a no-op whatever it finds.
      return runOperation(
        metrics,
        'gc',
        () => engine.gc(request.body?.keep ?? 0, dryRun, covers, oneNamespace(request.body?.namespace)),
        (r) => ({ noop: dryRun || r.pruned === 0, changed: 0 }),
      );
    },
  );
};

/** The one namespace a run is for: none named, every one; an empty name, as everywhere, `default`. */
function oneNamespace(named: string | undefined): string | undefined {
  return named === undefined ? undefined : named || 'default';
}
