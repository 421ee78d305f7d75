import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors.js';
import { modelsNamedBy } from '../model-registry/key-model-names.js';
import { keyModelRefusal } from '../model-registry/key-model-refusal.js';
import type { ModelObject, ModelRegistry } from '../model-registry/model-registry.js';
import { contextOf } from '../pipeline/request-context.js';
import { beginPipeline } from '../pipeline/pipeline.js';
import {
  anthropicListQuerySchema,
  anthropicModel,
  anthropicModelListSchema,
  anthropicModelPage,
  anthropicModelSchema,
  wantsAnthropicShape,
} from './anthropic-models.js';

const modelObjectSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number(),
  owned_by: z.string(),
});
const modelListSchema = z.object({ object: z.literal('list'), data: z.array(modelObjectSchema) });

/**
 * `GET /v1/models` (canonical names, and for a key limited to some, the aliases it lists) and `GET /v1/models/:model`; any valid key, no
 * scope. In OpenAI's shape, or in Anthropic's for Anthropic's SDKs (they send `anthropic-version`).
 */
export const modelsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  /** The models this caller may use: a key limited to some models sees only those (aliases included). */
  const visible = (models: ReadonlySet<string> | null): readonly ModelObject[] =>
    modelsNamedBy(services.registry, models);
  const keyModels = (request: Parameters<typeof contextOf>[0]): ReadonlySet<string> | null => {
    const principal = contextOf(request).principal;
    return principal?.kind === 'key' ? principal.key.models : null;
  };

  typed.get(
    '/v1/models',
    {
      schema: {
        querystring: anthropicListQuerySchema,
        response: { 200: z.union([modelListSchema, anthropicModelListSchema]) },
      },
      onRequest: beginPipeline('models', '/v1/models', services),
    },
    async (request) => {
      const models = visible(keyModels(request));
      if (wantsAnthropicShape(request.headers)) return anthropicModelPage(models, request.query);
      return { object: 'list' as const, data: [...models] };
    },
  );

  typed.get(
    '/v1/models/*',
    {
      schema: {
        // Empty too: `GET /v1/models/` is answered below in words a client knows, not as a route parameter.
        params: z.object({ '*': z.string() }),
        response: { 200: z.union([modelObjectSchema, anthropicModelSchema]) },
      },
      onRequest: beginPipeline('models', '/v1/models/*', services),
    },
    async (request) => {
      // A wildcard: canonical names such as `demo/echo` contain slashes.
      const id = request.params['*'];
      if (id === '')
        throw notFound(
          "no model id in the path '/v1/models/': GET /v1/models lists the models, GET /v1/models/{id} answers one",
        );
      const models = keyModels(request);
      const shown = visible(models);
      const found = shown.find((m) => m.id === id) ?? aliasEntry(id, shown, services.registry);
      if (found) return wantsAnthropicShape(request.headers) ? anthropicModel(found) : found;
      const principal = contextOf(request).principal;
      const key = principal?.kind === 'key' && models !== null ? { id: principal.key.row.id, models } : undefined;
      throw notFound(notShownReason(id, services.registry, key));
    },
  );
};

/**
 * Why a model id is not answered, as 404 (OpenAI's answer for a model the caller cannot use): not
 * allowed, an alias of a model not allowed, or allowed but left out of the key's list, which is then
 * named, so the message never blames the allow-list for what the key decides.
 */
function notShownReason(
  id: string,
  registry: ModelRegistry,
  key: { readonly id: string; readonly models: ReadonlySet<string> } | undefined,
): string {
  const resolution = registry.resolve(id);
  if (!resolution.ok)
    return resolution.model === id
      ? `model '${id}' is not in allowed_models`
      : `model '${id}' is an alias of '${resolution.model}', which is not in allowed_models`;
  // Allowed, and every allowed model and alias of one is shown to a caller without a list.
  if (key === undefined) return `model '${id}' is not available to this caller`;
  return keyModelRefusal(key.id, id, resolution.model, key.models);
}

/**
 * An alias the caller may call, answered under its own name (as requests use it) with its target's
 * entry: `shown` holds the target when the caller may use it.
 */
function aliasEntry(id: string, shown: readonly ModelObject[], registry: ModelRegistry): ModelObject | undefined {
  const resolution = registry.resolve(id);
  if (!resolution.ok || resolution.aliasOf === undefined) return undefined;
  const target = shown.find((m) => m.id === resolution.model);
  return target === undefined ? undefined : { ...target, id };
}
