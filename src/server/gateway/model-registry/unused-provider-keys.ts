import { PROVIDER_KEY_VARIABLES } from '../providers/provider-settings.js';
import type { ModelRegistry } from './model-registry.js';

/**
 * Provider key variables that are set while no allowed model or deployment goes to that provider: on
 * a first run, the key is set and the model it was meant for is not allowed yet, so every request for
 * it is refused. Each names the variable and where models are allowed.
 */
export function unusedProviderKeys(
  registry: Pick<ModelRegistry, 'routableDeployments'>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const set = PROVIDER_KEY_VARIABLES.filter(([, variable]) => env[variable]);
  if (set.length === 0) return [];
  const used = new Set(registry.routableDeployments().map((deployment) => deployment.provider));
  return set
    .filter(([provider]) => !used.has(provider))
    .map(
      ([provider, variable]) =>
        `${variable} is set, but no allowed model or deployment uses ${provider}: add the ${provider} models to use to llm.allowed_models in the configuration file, on the UI's Models screen, or with PUT /internal/models`,
    );
}
