import type { ModelSettings } from '../../../shared/gateway-api.js';

/** The models allowed before and not after: what an update removes. */
export function removedModels(before: readonly string[], after: readonly string[]): string[] {
  const kept = new Set(after);
  return before.filter((model) => !kept.has(model));
}

/**
 * Why the settings after an update cannot stand with the models it removes, or undefined: an alias
 * left routing to a removed model (every request through it would be refused) or a default embeddings
 * model removed (every embeddings request without a model would be). Each names the setting to change
 * in the same request. An alias that already awaited an unlisted target is not the update's doing and
 * stays accepted; so is a removed default when passthrough callers may use any model.
 */
export function removalProblem(
  removed: readonly string[],
  after: Pick<ModelSettings, 'model_aliases' | 'default_embedding_model'>,
  passthrough: boolean,
): string | undefined {
  if (removed.length === 0) return undefined;
  const gone = new Set(removed);
  const aliases = Object.entries(after.model_aliases).filter(([, target]) => gone.has(target));
  if (aliases.length > 0) {
    const [alias, target] = aliases[0]!;
    const others = aliases.slice(1).map(([name]) => `'${name}'`);
    const also = others.length === 0 ? '' : ` (as do ${others.join(', ')})`;
    return `model_aliases.${alias}: routes to '${target}'${also}, which this update removes from allowed_models, so its requests would be refused; in the same request remove the alias from model_aliases or point it at an allowed model`;
  }
  const embedding = after.default_embedding_model;
  if (!passthrough && embedding != null && gone.has(embedding))
    return `default_embedding_model: '${embedding}' is removed from allowed_models by this update, so every embeddings request without a model would be refused; in the same request set default_embedding_model to another allowed model, or to null`;
  return undefined;
}

/**
 * The settings without the max_tokens caps of the removed models: kept, they would guard nothing, and a
 * later save sending the caps back would be refused. Prices stay: a price may also price an implicit
 * deployment's upstream model of that name, and allowing the model again prices it as before.
 * Returns the same object when no cap goes.
 */
export function withoutRemovedCaps<T extends Pick<ModelSettings, 'per_model_max_tokens'>>(
  settings: T,
  removed: readonly string[],
): T {
  const caps = removed.filter((model) => Object.hasOwn(settings.per_model_max_tokens, model));
  if (caps.length === 0) return settings;
  return {
    ...settings,
    per_model_max_tokens: Object.fromEntries(
      Object.entries(settings.per_model_max_tokens).filter(([name]) => !caps.includes(name)),
    ),
  };
}
