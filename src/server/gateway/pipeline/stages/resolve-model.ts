import { AppError, badRequest, forbidden } from '../../../http/errors.js';
import { closestName } from '../../../../shared/closest-name.js';
import { modelsNamedBy } from '../../model-registry/key-model-names.js';
import { keyModelRefusal } from '../../model-registry/key-model-refusal.js';
import { KNOWN_PROVIDERS } from '../../providers/provider-settings.js';
import { supportsEmbeddings } from '../../providers/registry.js';
import type { RequestContext } from '../request-context.js';

/** The fields of a conversation body this stage reads and rewrites. */
interface ConversationBody {
  model: string;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  /** Messages' extended thinking (`{type: 'enabled', budget_tokens}`). */
  thinking?: unknown;
}

/**
 * The models the caller could use instead, for a refusal's message: a key limited to some models is
 * shown only those, as /v1/models shows it only those. Empty when there are none.
 */
function usableModels(ctx: RequestContext): {
  readonly limited: boolean;
  readonly ids: readonly string[];
  readonly list: string;
} {
  const keyModels = ctx.principal?.kind === 'key' ? ctx.principal.key.models : null;
  const ids = modelsNamedBy(ctx.services.registry, keyModels).map((model) => model.id);
  const list = ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, ...` : ids.join(', ');
  return { limited: keyModels !== null, ids, list };
}

/** Where an admin allows a model: a first run with a provider key gets this refusal for its first real model. */
const WHERE_ALLOWED =
  "add it to llm.allowed_models in the configuration file, on the UI's Models screen, or with PUT /internal/models";

/**
 * The usable model a refused name most likely meant: the same model with or without a provider prefix
 * (`openai/gpt-4o-mini`, as LiteLLM spells it, for an allowed `gpt-4o-mini`), else a close spelling.
 */
function meantModel(requested: string, ids: readonly string[]): string | undefined {
  const unprefixed = (name: string): string | undefined => {
    const slash = name.indexOf('/');
    return slash > 0 && KNOWN_PROVIDERS.includes(name.slice(0, slash)) ? name.slice(slash + 1) : undefined;
  };
  const bare = unprefixed(requested);
  if (bare !== undefined && ids.includes(bare)) return bare;
  return ids.find((id) => unprefixed(id) === requested) ?? closestName(requested, ids);
}

/**
 * The refusal of a model outside the allow-list, naming the models the caller could use instead, the
 * one it most likely meant when the name is a typo of one (the list is cut at ten), and where the list
 * is changed.
 */
function notAllowed(ctx: RequestContext, requested: string, model: string): AppError {
  const named = requested === model ? `'${model}'` : `'${model}' (alias '${requested}')`;
  const { limited, ids, list } = usableModels(ctx);
  const hint = limited ? `this key may use ${list || 'none of them'}` : list || 'none';
  const meant = meantModel(requested, ids);
  const next = meant === undefined ? `: ${WHERE_ALLOWED}` : `; did you mean '${meant}'? Otherwise ${WHERE_ALLOWED}`;
  return new AppError('model_not_allowed', `model ${named} is not in allowed_models (${hint})${next}`);
}

/** The caller's key (its id and models) when it is limited to models that leave this one out (by canonical and requested name). */
function refusingKey(
  ctx: RequestContext,
  requested: string,
  model: string,
): { readonly id: string; readonly models: ReadonlySet<string> } | undefined {
  const principal = ctx.principal;
  if (principal?.kind !== 'key' || principal.key.models === null) return undefined;
  if (principal.key.models.has(model) || principal.key.models.has(requested)) return undefined;
  return { id: principal.key.row.id, models: principal.key.models };
}

/**
 * The model a name resolves to when the caller may use it (allowed, and in its key's models), else
 * undefined: for recording a request refused before its model stage ran.
 */
export function usableModel(ctx: RequestContext, requested: string): string | undefined {
  const resolution = ctx.services.registry.resolve(requested);
  if (!resolution.ok || refusingKey(ctx, requested, resolution.model) !== undefined) return undefined;
  return resolution.model;
}

/** A key limited to some models may use only those: refused as `GET /v1/models/{id}` words it. */
function checkKeyModels(ctx: RequestContext, requested: string, model: string): void {
  const key = refusingKey(ctx, requested, model);
  if (key === undefined) return;
  throw new AppError('permission_error', keyModelRefusal(key.id, requested, model, key.models), { param: 'model' });
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
  // Messages puts the thinking budget inside max_tokens; a chat body's `thinking` is translated with the
  // budget added on top of max_tokens, so the cap cannot make it invalid.
  if (ctx.endpoint === 'messages') checkThinkingBudget(body, maxTokens, model, cap);
}

/**
 * Anthropic refuses a thinking budget that is not below `max_tokens`. When the cap is what brought
 * `max_tokens` down to it, the client's request was valid as sent: it gets a 400 naming the cap, rather
 * than Anthropic's refusal of a body it never wrote, as a 502.
 */
function checkThinkingBudget(
  body: ConversationBody,
  sent: number | null | undefined,
  model: string,
  cap: number,
): void {
  const budget = (body.thinking as { budget_tokens?: unknown } | null | undefined)?.budget_tokens;
  if (typeof budget !== 'number' || body.max_tokens == null || body.max_tokens > budget) return;
  if (sent != null && sent <= budget) return;
  throw badRequest(
    `thinking.budget_tokens (${budget}) must be below max_tokens, which per_model_max_tokens caps at ${cap} for model '${model}': lower the budget`,
  );
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

/**
 * Model resolution for a token count: alias rewrite, allow-list and the key's own models, and no
 * per-model cap. A count generates nothing, so it has no `max_tokens` to cap, nor one that a thinking
 * budget must stay below. `model` is rewritten on a copy of the body; the client's is left as sent.
 */
export function resolveCountModel(ctx: RequestContext): void {
  ctx.body = { ...ctx.body };
  resolveInferenceModel(ctx);
  // A count is answered as JSON, whatever `stream` its body says.
  ctx.stream = false;
}

/** Alias rewrite, allow-list and the key's own models, for every generating endpoint; rewrites `model`. */
function resolveInferenceModel(ctx: RequestContext): string {
  const registry = ctx.services.registry;
  const body = ctx.body as { model: string; stream?: unknown };
  ctx.stream = body.stream === true;
  const requested = body.model;
  ctx.requestedModel = requested;
  const resolution = registry.resolve(requested);
  if (!resolution.ok) throw notAllowed(ctx, requested, resolution.model);
  const model = resolution.model;
  checkKeyModels(ctx, requested, model);
  ctx.model = model;
  body.model = model;
  return model;
}

/**
 * Model resolution for embeddings: default model, alias rewrite, refusal when its provider cannot
 * embed (Anthropic), then the allow-list for issued keys. A passthrough caller pays its own provider,
 * so its model names are passed through.
 */
export function resolveEmbeddingsModel(ctx: RequestContext): void {
  const registry = ctx.services.registry;
  const body = ctx.body as { model?: string };
  const requested = body.model ?? registry.defaultEmbeddingModel();
  if (requested === undefined)
    throw badRequest(
      'model is required: the request has no model and llm.default_embedding_model is not configured',
      'model',
    );
  ctx.requestedModel = requested;
  const model = registry.rewriteAlias(requested);
  // The provider that would serve it decides, deployments first: a `claude-…` name an admin deployed on an
  // OpenAI-compatible provider embeds; a name no deployment serves is judged by the provider its name
  // says (`claude-…`: Anthropic). One whose provider cannot be told is refused later, by the route stage.
  const provider = registry.providerFor(model);
  if (provider !== undefined && !supportsEmbeddings(provider))
    throw badRequest(`model '${model}' does not support embeddings: its provider ${provider} has no embeddings API`);
  if (ctx.principal?.kind === 'key') {
    if (body.model === undefined) checkDefaultModel(ctx, requested, model);
    else {
      if (!registry.isAllowed(model)) throw notAllowed(ctx, requested, model);
      checkKeyModels(ctx, requested, model);
    }
  }
  ctx.model = model;
  body.model = model;
}

/**
 * The allow-list and the key's models for the default embedding model of a request without `model`:
 * the refusal says the model is the default, since the client never named it, and what to name instead.
 */
function checkDefaultModel(ctx: RequestContext, requested: string, model: string): void {
  const alias = requested === model ? '' : `, an alias of '${model}'`;
  const named = `the default embedding model '${requested}' (llm.default_embedding_model${alias})`;
  const { list } = usableModels(ctx);
  if (!ctx.services.registry.isAllowed(model)) {
    const instead = list === '' ? 'no allowed model is left to name' : `name one of ${list} in model`;
    throw new AppError(
      'model_not_allowed',
      `the request names no model, and ${named} is not in allowed_models; ${instead}`,
    );
  }
  const key = refusingKey(ctx, requested, model);
  if (key === undefined) return;
  throw forbidden(
    `the request names no model, and API key ${key.id} may not use ${named}; the key may use ${list || 'none of the allowed models'}: name one in model`,
  );
}
