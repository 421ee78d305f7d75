import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { modelSettingsUpdateSchema, modelSettingsViewSchema } from '../../../../shared/gateway-api.js';

/** `/internal/models`: allowed models, aliases, per-model max_tokens, default embedding model. */
export const adminModelsRoutes: FastifyPluginAsync = async (app) => {
  const { admin } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/models', { schema: { response: { 200: modelSettingsViewSchema } } }, async () => admin.modelSettings());
  typed.put(
    '/models',
    { schema: { body: modelSettingsUpdateSchema, response: { 200: modelSettingsViewSchema } } },
    async (request) => admin.updateModelSettings(request.body, { requestId: request.id }),
  );
};
