import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gcRequestSchema, gcResponseSchema } from '../../../shared/store-api.js';
import { databaseStateError } from '../../http/database-errors.js';
import { AppError, forbidden } from '../../http/errors.js';
import { invalidError } from '../engine/errors.js';
import { administeredNamespaces } from '../store-auth.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/**
 * POST /v1/gc: delete old revisions of every namespace the caller may administer (or of the one named
 * in `namespace`), or with `dry_run` count them (admin permission). A token limited to `team/*` prunes
 * and counts only under `team/`. The answer says how many bytes of the database are free (what
 * `compact` would give back), once the contents the prune left unreferenced are deleted; with
 * `compact`, the database is rewritten without them (VACUUM), which only a token over every namespace
 * may ask: it blocks both services, whatever their namespaces.
 */
export const gcRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post(
    '/v1/gc',
    {
      config: { storeAuth: { verb: 'admin' } },
      schema: { body: gcRequestSchema.nullish(), response: { 200: gcResponseSchema, ...errorResponses } },
    },
    async (request) =>
      runWithRoom(async () => {
        const dryRun = request.body?.dry_run ?? false;
        const compact = request.body?.compact ?? false;
        const covers = administeredNamespaces(request.storeGrant);
        if (compact && covers !== undefined)
          throw forbidden(
            `token "${request.storeGrant?.name}" may not compact: compact rewrites the whole database, so it needs ` +
              'the admin permission over every namespace ("*"); send gc without compact',
          );
        // A dry run changes nothing, so the metrics count it as a no-op whatever it finds.
        const { pruned } = runOperation(
          metrics,
          'gc',
          () => {
            if (compact && dryRun)
              throw invalidError(
                'compact cannot be used with dry_run: a dry run writes nothing; send one or the other',
              );
            return engine.gc(request.body?.keep ?? 0, dryRun, covers, oneNamespace(request.body?.namespace));
          },
          (r) => ({ noop: dryRun || r.pruned === 0, changed: 0 }),
        );
        // The contents the prune left unreferenced are deleted in slices after its transaction; once they
        // are, their pages are free, and the count says what a compact would give back.
        if (!dryRun) await engine.contentSwept();
        if (!compact) return { pruned, free_bytes: engine.freeBytes() };
        const compacted = engine.compact();
        return { pruned, free_bytes: engine.freeBytes(), compacted_bytes: compacted };
      }),
  );
};

/** The one namespace a run is for: none named, every one; an empty name, as everywhere, `default`. */
function oneNamespace(named: string | undefined): string | undefined {
  return named === undefined ? undefined : named || 'default';
}

/**
 * Runs a gc, saying on a full disk that gc itself needs room there: deleting revisions writes to the
 * -wal first, and compact writes a whole new copy, so the way to free space within Gatehouse is shut
 * until some is freed outside it.
 */
async function runWithRoom<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const refusal = databaseStateError(error);
    if (refusal === undefined || !/\(SQLITE_FULL/.test(refusal.message)) throw error;
    throw new AppError(
      refusal.type,
      `${refusal.message} (gc needs free space on that disk itself, to log the deletions, and compact about twice ` +
        'the size of the database: free space outside Gatehouse first)',
      { status: refusal.status, headers: { ...refusal.headers } },
    );
  }
}
