import type { DeploymentInput } from '../../../shared/gateway-api.js';
import { ApiError } from './http.js';

/**
 * The gateway names a refused deployment by its place in the list sent (`deployments[2].api_key_env
 * …`), which the Models screen's table does not show: the message gets the deployment's id (or its
 * model, for one not saved yet) and address beside that place, so the row to fix can be found.
 */
export function nameDeploymentInError(error: unknown, deployments: readonly DeploymentInput[]): unknown {
  if (!(error instanceof ApiError)) return error;
  const match = /^deployments\[(\d+)\]\.?/.exec(error.message);
  const deployment = match ? deployments[Number(match[1])] : undefined;
  if (!match || !deployment) return error;
  const who = deployment.id ?? `${deployment.model}, not saved yet`;
  const where = deployment.base_url ?? deployment.provider;
  const named = `deployments[${match[1]}] (${who}${where ? `, ${where}` : ''}): ${error.message.slice(match[0].length).trimStart()}`;
  return new ApiError(error.status, error.type, named, error.requestId);
}
