import { ownSecretVariables } from '../../config/own-secret-variables.js';
import type { Config, DeploymentConfig } from '../../config/schema.js';
import type { DeploymentInput } from '../../../shared/gateway-api.js';
import { deploymentProblem, inferProvider } from '../providers/index.js';
import type { Deployment } from '../providers/types.js';
import { duplicateDeploymentId, mayReadKeyVariable, resolveDeployments, type DeploymentSources } from './deployment.js';

/**
 * A key read from a variable that is not set (every call would go out without a key and fail upstream
 * with 401), or from one holding Gatehouse's own credentials: the list is refused, naming the variable
 * (a name, never a secret).
 */
function keyVariableProblem(input: DeploymentConfig | DeploymentInput, sources: DeploymentSources): string | undefined {
  const variable = input.api_key_env;
  if (variable === undefined) return undefined;
  const own = sources.ownSecrets.get(variable);
  if (own !== undefined)
    return `api_key_env ${variable} holds ${own}, which is never sent to a provider: name the variable that holds the provider's key`;
  if (!mayReadKeyVariable(variable, sources))
    return `api_key_env ${variable} is not a variable the admin API may read: list it in gateway.key_variables of the startup configuration, or give api_key`;
  if (input.api_key || sources.env[variable]) return undefined;
  return `api_key_env ${variable} is not set in the gateway's environment: set it before starting, or give api_key`;
}

/**
 * Resolves a list, with what would be renamed or fail only at request time, each worded
 * `deployments[<i>].<field> <problem>`: the rules for the configuration file and the admin API alike.
 */
export function deploymentListProblems(
  inputs: ReadonlyArray<DeploymentConfig | DeploymentInput>,
  sources: DeploymentSources,
): { readonly resolved: Deployment[]; readonly problems: string[] } {
  const problems: string[] = [];
  const duplicate = duplicateDeploymentId(inputs);
  if (duplicate) {
    problems.push(
      `deployments[${duplicate.second}].id '${duplicate.id}' is already used by deployments[${duplicate.first}]; deployment ids must be unique`,
    );
  }
  const resolved = resolveDeployments(inputs, sources);
  for (const [index, deployment] of resolved.entries()) {
    const problem = deploymentProblem(deployment) ?? keyVariableProblem(inputs[index]!, sources);
    if (problem !== undefined) problems.push(`deployments[${index}].${problem}`);
  }
  return { resolved, problems };
}

/** Where the configuration file's deployments take their values from (the file, and the environment). */
export function fileDeploymentSources(
  config: Config,
  env: NodeJS.ProcessEnv,
  ownSecrets: ReadonlyMap<string, string> = ownSecretVariables(config),
): DeploymentSources {
  return {
    inferProvider: (model) => inferProvider(model),
    providers: config.providers,
    env,
    maxRetries: config.gateway.max_retries,
    ownSecrets,
  };
}
