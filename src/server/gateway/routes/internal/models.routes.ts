import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  modelSettingsOf,
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
  // The tag covers what a PUT sets and where it comes from, not the model limits' counters or the
  // providers the deployments give the models: those move with traffic and deployment saves.
  const identity = (view: PricedModelSettingsView) => ({
    ...modelSettingsOf(view),
    source: view.source,
    updated_at: view.updated_at,
  });
  const answer = (reply: FastifyReply, view: PricedModelSettingsView) => tagged(reply, view, identity(view));
  typed.get('/models', { schema: { response: { 200: modelSettingsViewSchema } } }, async (_request, reply) =>
    answer(reply, priced(admin.modelSettings())),
  );
  typed.put(
    '/models',
    { schema: { body: modelSettingsUpdateSchema, response: { 200: modelSettingsViewSchema } } },
    async (request, reply) => {
      checkIfMatch(request, identity(priced(admin.modelSettings())), 'models');
      return answer(reply, priced(await admin.updateModelSettings(request.body, { requestId: request.id })));
    },
  );
};
