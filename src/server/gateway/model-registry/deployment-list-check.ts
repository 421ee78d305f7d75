import { BEARER_SECRET_PATTERN, BEARER_SECRET_RULE } from '../../config/bearer-secret.js';
import { ownSecretVariables } from '../../config/own-secret-variables.js';
import type { Config, DeploymentConfig } from '../../config/schema.js';
import type { DeploymentInput } from '../../../shared/gateway-api.js';
import { deploymentProblem, inferProvider } from '../providers/index.js';
import type { Deployment } from '../providers/types.js';
import { duplicateDeploymentId, mayReadKeyVariable, resolveDeployments, type DeploymentSources } from './deployment.js';

/**
 * Why a provider key could not be sent (`a space or another character ...`), or is no key at all (an
 * example's placeholder), or undefined. It goes
 * out in a request header, as the master key comes in: a stray line end (a `.env` file saved with
 * CRLF) or a space would make every call fail before it leaves, so it is refused where it is set.
 * Never the value: it is a secret.
 */
export function unsendableKeyProblem(value: string): string | undefined {
  // The examples' `sk-...` and `sk-ant-...`, copied as they are: sent, every call is refused with 401.
  if (/(\.\.\.|\u2026)$/.test(value.trim()))
    return `the ending "..." of a documentation placeholder (sk-..., sk-ant-...): put the provider's whole key there`;
  if (BEARER_SECRET_PATTERN.test(value)) return undefined;
  const lineEnd = /[\r\n]$/.test(value)
    ? ' (it ends in a line break, as a value from a file saved with CRLF line ends does)'
    : '';
  return `a space or another character a provider key cannot hold${lineEnd}: use ${BEARER_SECRET_RULE}`;
}

/** A key written in the deployment itself that could not be sent. */
function literalKeyProblem(input: DeploymentConfig | DeploymentInput): string | undefined {
  if (typeof input.api_key !== 'string') return undefined;
  const problem = unsendableKeyProblem(input.api_key);
  return problem === undefined ? undefined : `api_key has ${problem}`;
}

/**
 * A key read from a variable that is not set (every call would go out without a key and fail upstream
 * with 401), from one holding Gatehouse's own credentials, or from one whose value could not be sent:
 * the list is refused, naming the variable (a name, never a secret).
 */
function keyVariableProblem(input: DeploymentConfig | DeploymentInput, sources: DeploymentSources): string | undefined {
  const variable = input.api_key_env;
  if (variable === undefined) return undefined;
  const own = sources.ownSecrets.get(variable);
  if (own !== undefined)
    return `api_key_env ${variable} holds ${own}, which is never sent to a provider: name the variable that holds the provider's key`;
  if (!mayReadKeyVariable(variable, sources))
    return `api_key_env ${variable} is not a variable the admin API may read: list it in gateway.key_variables of the startup configuration, or give api_key`;
  if (input.api_key) return undefined;
  const value = sources.env[variable];
  if (value) {
    const problem = unsendableKeyProblem(value);
    return problem === undefined ? undefined : `api_key_env ${variable} holds a value with ${problem}`;
  }
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
    const input = inputs[index]!;
    const problem = deploymentProblem(deployment) ?? literalKeyProblem(input) ?? keyVariableProblem(input, sources);
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
