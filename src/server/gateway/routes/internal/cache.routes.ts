import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cachePurgeResultSchema,
  cachePurgeSchema,
  cacheSettingsUpdateSchema,
  cacheViewSchema,
} from '../../../../shared/cache-api.js';

/** `/internal/cache`: the response cache's settings (read, change, reset) and `/internal/cache/purge`. */
export const cacheRoutes: FastifyPluginAsync = async (app) => {
  const admin = app.gateway.cacheAdmin;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/cache', { schema: { response: { 200: cacheViewSchema } } }, async () => admin.view());
  typed.put(
    '/cache',
    { schema: { body: cacheSettingsUpdateSchema, response: { 200: cacheViewSchema } } },
    async (request) => admin.update(request.body, { requestId: request.id }),
  );
  typed.post(
    '/cache/purge',
    { schema: { body: cachePurgeSchema.nullish(), response: { 200: cachePurgeResultSchema } } },
    async (request) => admin.purge(request.body ?? {}, { requestId: request.id }),
  );
};
