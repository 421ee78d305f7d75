import { missingKeyVariable } from '../providers/provider-settings.js';
import type { Deployment } from '../providers/types.js';
import type { ModelRegistry } from './model-registry.js';

/**
 * A derived deployment marked with the key variable it lacks when it goes to its provider's public
 * address with no key (routing refuses its calls then, see Deployment.unsetKeyVariable); else itself.
 */
export function withUnsetKeyVariable(deployment: Deployment, env: NodeJS.ProcessEnv): Deployment {
  const variable = deployment.explicit ? undefined : missingKeyVariable(deployment, env);
  return variable === undefined ? deployment : { ...deployment, unsetKeyVariable: variable };
}

/**
 * Allowed models whose requests cannot succeed as configured, each as `llm.allowed_models: <why>`:
 * one no deployment serves and whose name says no provider (every request is refused with
 * model_not_allowed), and one derived for a provider's public address with no key for it (every call
 * would be refused there with 401, so routing refuses it before it leaves). Said in the log at start,
 * not refused at start: a key may be brought by passthrough callers, a deployment added through the
 * admin API.
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
