import { AppError, badRequest, forbidden } from '../../../http/errors.js';
import type { ModelRegistry } from '../../model-registry/model-registry.js';
import type { RequestContext } from '../request-context.js';

/** The fields of a conversation body this stage reads and rewrites. */
interface ConversationBody {
  model: string;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
}

function notAllowed(requested: string, model: string, registry: ModelRegistry): AppError {
  const named = requested === model ? `'${model}'` : `'${model}' (alias '${requested}')`;
  const allowed = registry.settings().allowed_models;
  const list = allowed.length > 10 ? `${allowed.slice(0, 10).join(', ')}, ...` : allowed.join(', ');
  return new AppError('model_not_allowed', `model ${named} is not in allowed_models (${list || 'none'})`);
}

/** A key limited to some models may use only those (by canonical or requested name). */
function checkKeyModels(ctx: RequestContext, requested: string, model: string): void {
  const principal = ctx.principal;
  if (principal?.kind !== 'key' || principal.key.models === null) return;
  if (principal.key.models.has(model) || principal.key.models.has(requested)) return;
  throw forbidden(`API key ${principal.key.row.id} may not use model '${model}'`);
}

/**
 * Model resolution for conversations (chat, Messages): alias rewrite, allow-list (400
 * model_not_allowed), the key's own model list, then the per-model cap on every token-limit field.
 * Rewrites the body in place.
 */
export function resolveConversationModel(ctx: RequestContext): void {
  const body = ctx.body as unknown as ConversationBody;
  const model = resolveInferenceModel(ctx);
  const cap = ctx.services.registry.maxTokensCap(model);
  if (cap === undefined) return;
  // Every limit field present is capped: a chat request may carry both, and an upstream honours either.
  // With neither, the cap is set as max_tokens so the upstream's own default cannot exceed it.
  const { max_tokens: maxTokens, max_completion_tokens: maxCompletionTokens } = body;
  if (maxCompletionTokens != null) body.max_completion_tokens = Math.min(maxCompletionTokens, cap);
  if (maxTokens != null || maxCompletionTokens == null) body.max_tokens = Math.min(maxTokens ?? cap, cap);
}

/**
 * Model resolution for Responses: as for conversations, with the per-model cap on
 * `max_output_tokens` (set to the cap when the request has none).
 */
export function resolveResponsesModel(ctx: RequestContext): void {
  const model = resolveInferenceModel(ctx);
  const cap = ctx.services.registry.maxTokensCap(model);
  if (cap === undefined) return;
  const body = ctx.body as { max_output_tokens?: number | null };
  body.max_output_tokens = Math.min(body.max_output_tokens ?? cap, cap);
}

/** Alias rewrite, allow-list and the key's own models, for every generating endpoint; rewrites `model`. */
function resolveInferenceModel(ctx: RequestContext): string {
  const registry = ctx.services.registry;
  const body = ctx.body as { model: string; stream?: unknown };
  ctx.stream = body.stream === true;
  const requested = body.model;
  ctx.requestedModel = requested;
  const resolution = registry.resolve(requested);
  if (!resolution.ok) throw notAllowed(requested, resolution.model, registry);
  const model = resolution.model;
  checkKeyModels(ctx, requested, model);
  ctx.model = model;
  body.model = model;
  return model;
}

/** True for Claude-family models, which have no embeddings API. */
function isClaudeFamily(model: string, registry: ModelRegistry): boolean {
  return model.startsWith('claude-') || model.startsWith('anthropic/') || registry.providerFor(model) === 'anthropic';
}

/**
 * Model resolution for embeddings: default model, alias rewrite, Claude rejection, then the
 * allow-list for issued keys. A passthrough caller pays its own provider, so its model names are
 * passed through.
 */
export function resolveEmbeddingsModel(ctx: RequestContext): void {
  const registry = ctx.services.registry;
  const body = ctx.body as { model?: string };
  const requested = body.model ?? registry.defaultEmbeddingModel();
  if (requested === undefined)
    throw badRequest('model is required: the request has no model and llm.default_embedding_model is not configured');
  ctx.requestedModel = requested;
  const model = registry.rewriteAlias(requested);
  if (isClaudeFamily(model, registry)) {
    throw badRequest(`model '${model}' does not support embeddings: Claude-family models have no embeddings API`);
  }
  if (ctx.principal?.kind === 'key') {
    if (!registry.isAllowed(model)) throw notAllowed(requested, model, registry);
    checkKeyModels(ctx, requested, model);
  }
  ctx.model = model;
  body.model = model;
}
