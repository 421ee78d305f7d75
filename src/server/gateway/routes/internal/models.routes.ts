import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  modelSettingsUpdateSchema,
  modelSettingsViewSchema,
  type ModelSettingsView,
  type PricedModelSettingsView,
} from '../../../../shared/gateway-api.js';
import { unpricedAllowedModels } from '../../model-registry/unpriced-allowed-models.js';
import { checkIfMatch, tagged } from './settings-etag.js';

/**
 * `/internal/models`: allowed models, aliases, per-model max_tokens, default embedding model and prices
 * (with an ETag and If-Match, over the prices too).
 */
export const adminModelsRoutes: FastifyPluginAsync = async (app) => {
  const { admin, registry } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const priced = (view: ModelSettingsView): PricedModelSettingsView => ({
    ...view,
    pricing: registry.settings().pricing,
    unpriced_models: unpricedAllowedModels(registry),
  });
  typed.get('/models', { schema: { response: { 200: modelSettingsViewSchema } } }, async (_request, reply) =>
    tagged(reply, priced(admin.modelSettings())),
  );
  typed.put(
    '/models',
    { schema: { body: modelSettingsUpdateSchema, response: { 200: modelSettingsViewSchema } } },
    async (request, reply) => {
      checkIfMatch(request, priced(admin.modelSettings()), 'models');
      return tagged(reply, priced(await admin.updateModelSettings(request.body, { requestId: request.id })));
    },
  );
};
