import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import type { DeploymentDraft } from './deployment-form.js';
import type { ModelSettingsDraft } from './model-settings-form.js';

/** A key limited to the model (or to an alias of it), named as the Keys screen shows it. */
export interface DependentKey {
  readonly id: string;
  readonly name: string;
  readonly owner: string | undefined;
  /** Whether the model (and its aliases) are all it may call: it can call nothing once they go. */
  readonly onlyThese: boolean;
}

/** What uses an allowed model, and what happens to each when it is removed. */
export interface ModelDependants {
  /** Aliases routing to it: removed with it (the gateway refuses to keep an alias routing to nothing). */
  readonly aliases: readonly string[];
  /** Whether it is the default embedding model: the default is cleared with it. */
  readonly defaultEmbedding: boolean;
  /** The deployments serving it (ids, or "new deployment" for unsaved ones): kept, without traffic. */
  readonly deployments: readonly string[];
  /** Active keys limited to it or to one of its aliases: kept, refused it until it is allowed again. */
  readonly keys: readonly DependentKey[];
  /** Whether the configuration file sets shared limits on it: kept there. */
  readonly limits: boolean;
  /** Its max_tokens cap: dropped with it. */
  readonly cap: number | undefined;
  /** Whether it has a price, which stays (for when it is allowed again, and for an upstream model of that name). */
  readonly priced: boolean;
}

/**
 * What uses `model` in the draft, the deployments being edited and the keys (undefined while they are
 * read). The keys are only the active ones: revoked and expired keys call nothing anyway.
 */
export function modelDependants(
  model: string,
  draft: ModelSettingsDraft,
  deployments: readonly DeploymentDraft[],
  keys: readonly ApiKeyRecord[] | undefined,
  modelLimits: Readonly<Record<string, readonly unknown[]>>,
): ModelDependants {
  const aliases = Object.entries(draft.model_aliases)
    .filter(([, target]) => target === model)
    .map(([alias]) => alias);
  const names = new Set([model, ...aliases]);
  const serving = deployments.filter((deployment) => deployment.model === model);
  return {
    aliases,
    defaultEmbedding: draft.default_embedding_model === model || aliases.includes(draft.default_embedding_model ?? ''),
    deployments: serving.map((deployment) => deployment.id || 'new deployment'),
    keys: (keys ?? [])
      .filter((key) => key.status === 'active' && key.models?.some((name) => names.has(name)) === true)
      .map((key) => ({
        id: key.id,
        name: key.name ?? key.key_prefix,
        owner: [key.user, key.team && `team ${key.team}`].filter(Boolean).join(', ') || undefined,
        onlyThese: key.models!.every((name) => names.has(name)),
      })),
    limits: (modelLimits[model]?.length ?? 0) > 0,
    cap: draft.per_model_max_tokens[model],
    priced: Object.hasOwn(draft.pricing, model),
  };
}

/** Removes one key of a record. */
function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/**
 * The draft without `model`: its cap and typed prices go, so do the aliases routing to it and the
 * default embedding model when it is (or is one of those aliases). Its saved price stays in the draft,
 * as the gateway keeps it.
 */
export function draftWithoutModel(draft: ModelSettingsDraft, model: string): ModelSettingsDraft {
  const aliases = Object.fromEntries(Object.entries(draft.model_aliases).filter(([, target]) => target !== model));
  const embedding = draft.default_embedding_model;
  const embeddingGoes = embedding === model || (embedding !== null && draft.model_aliases[embedding] === model);
  return {
    ...draft,
    allowed_models: draft.allowed_models.filter((item) => item !== model),
    model_aliases: aliases,
    per_model_max_tokens: without(draft.per_model_max_tokens, model),
    default_embedding_model: embeddingGoes ? null : embedding,
    priceText: without(draft.priceText, model),
  };
}
