import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gcRequestSchema, gcResponseSchema } from '../../../shared/store-api.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/** POST /v1/gc: delete old revisions of every namespace (admin permission). */
export const gcRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.post('/v1/gc', {
    config: { storeAuth: { verb: 'admin' } },
    schema: { body: gcRequestSchema.nullish(), response: { 200: gcResponseSchema, ...errorResponses } },
  }, async (request) => runOperation(metrics, 'gc', () => engine.gc(request.body?.keep ?? 0), (r) => ({ noop: r.pruned === 0, changed: 0 })));
};
