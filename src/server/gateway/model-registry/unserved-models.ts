import { missingKeyVariable } from '../providers/provider-settings.js';
import type { ModelRegistry } from './model-registry.js';

/**
 * Allowed models whose requests cannot succeed as configured, each as `llm.allowed_models: <why>`:
 * one no deployment serves and whose name says no provider (every request is refused with
 * model_not_allowed), and one derived for a provider's public address with no key for it (every call
 * is refused there with 401, after the retries). Said in the log at start, not refused: a key may be
 * brought by passthrough callers, a deployment added through the admin API.
 */
export function unservedModels(
  registry: Pick<ModelRegistry, 'settings' | 'deploymentsFor'>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const problems: string[] = [];
  for (const model of registry.settings().allowed_models) {
    const deployments = registry.deploymentsFor(model);
    if (deployments.length === 0) {
      problems.push(
        `llm.allowed_models: '${model}' names no provider and no deployment serves it, so its requests are refused; add a deployment for it, or write it with its provider's prefix (ollama/${model})`,
      );
      continue;
    }
    for (const deployment of deployments) {
      const variable = deployment.explicit ? undefined : missingKeyVariable(deployment, env);
      if (variable !== undefined)
        problems.push(
          `llm.allowed_models: '${model}' goes to ${deployment.provider}'s public address with no key, which refuses its calls: set ${variable} or providers.${deployment.provider}.api_key (callers that send their own provider key are not affected)`,
        );
    }
  }
  return problems;
}
