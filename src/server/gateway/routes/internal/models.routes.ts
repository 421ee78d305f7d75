import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { modelSettingsUpdateSchema, modelSettingsViewSchema } from '../../../../shared/gateway-api.js';
import { checkIfMatch, tagged } from './settings-etag.js';

/** `/internal/models`: allowed models, aliases, per-model max_tokens, default embedding model (with an ETag and If-Match). */
export const adminModelsRoutes: FastifyPluginAsync = async (app) => {
  const { admin } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/models', { schema: { response: { 200: modelSettingsViewSchema } } }, async (_request, reply) =>
    tagged(reply, admin.modelSettings()),
  );
  typed.put(
    '/models',
    { schema: { body: modelSettingsUpdateSchema, response: { 200: modelSettingsViewSchema } } },
    async (request, reply) => {
      checkIfMatch(request, admin.modelSettings(), 'models');
      return tagged(reply, await admin.updateModelSettings(request.body, { requestId: request.id }));
    },
  );
};
