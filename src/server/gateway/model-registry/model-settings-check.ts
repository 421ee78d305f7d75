import type { ModelSettings } from '../../../shared/gateway-api.js';

/** A model setting that could never take effect: which (`per_model_max_tokens.fast`) and why. */
export interface ModelSettingIssue {
  readonly path: readonly string[];
  readonly message: string;
}

/** Which settings to check, and whether embeddings may go to models outside the allow-list. */
export interface ModelSettingsCheck {
  readonly settings: Pick<
    ModelSettings,
    'allowed_models' | 'model_aliases' | 'per_model_max_tokens' | 'default_embedding_model'
  >;
  /** Check the caps (an admin update checks only what it sends). */
  readonly caps: boolean;
  /** The priced models to check (an admin update checks the prices it adds or changes). */
  readonly prices?: readonly string[];
  /** The deployments' upstream models: a price under one of them prices the requests they serve. */
  readonly upstreamModels?: ReadonlySet<string>;
  /** Check the default embeddings model. */
  readonly defaultEmbeddingModel: boolean;
  /** `allow_passthrough_keys`: a caller's own provider key may use any model, allowed or not. */
  readonly passthrough: boolean;
}

/**
 * Caps and the default embeddings model that name what no request resolves to. A cap is looked up by
 * the canonical model a request is routed to, so one on an alias or on a model outside the allow-list
 * is accepted and never lowers anything: a spending guard that guards nothing. A default embeddings
 * model that is not allowed (nor an alias of an allowed one) makes every embeddings request without a
 * model a 400, which only shows once clients call it.
 */
export function modelSettingIssues(check: ModelSettingsCheck): ModelSettingIssue[] {
  const { allowed_models, model_aliases: aliases, per_model_max_tokens: caps } = check.settings;
  const allowed = new Set(allowed_models);
  const issues: ModelSettingIssue[] = [];
  for (const model of check.caps ? Object.keys(caps) : []) {
    if (allowed.has(model)) continue;
    const target = Object.hasOwn(aliases, model) ? aliases[model] : undefined;
    issues.push({
      path: ['per_model_max_tokens', model],
      message:
        target !== undefined
          ? `'${model}' is an alias, and caps apply to the model a request is routed to; name its target '${target}'`
          : `'${model}' is not in allowed_models, so this cap would never apply`,
    });
  }
  for (const model of check.prices ?? []) {
    if (allowed.has(model) || check.upstreamModels?.has(model)) continue;
    const target = Object.hasOwn(aliases, model) ? aliases[model] : undefined;
    issues.push({
      path: ['pricing', model],
      message:
        target !== undefined
          ? `'${model}' is an alias, and requests are priced by the model they are routed to; name its target '${target}'`
          : `'${model}' is neither in allowed_models nor a deployment's upstream model, so this price would never count (allow the model first)`,
    });
  }
  const embedding = check.settings.default_embedding_model;
  if (check.defaultEmbeddingModel && !check.passthrough && embedding != null) {
    const target = Object.hasOwn(aliases, embedding) ? aliases[embedding]! : embedding;
    if (!allowed.has(target))
      issues.push({
        path: ['default_embedding_model'],
        message: `'${target}'${target === embedding ? '' : ` (alias '${embedding}')`} is not in allowed_models, so every embeddings request without a model would be refused`,
      });
  }
  return issues;
}
