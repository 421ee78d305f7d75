import type { DeploymentInput } from '../../../shared/gateway-api.js';

/**
 * The gateway names a refused deployment by its place in the list sent (`deployments[2].api_key_env
 * …`), which the Models screen's table does not show: the message gets the deployment's id (or its
 * model, for one not saved yet) and address beside that place, so the row to fix can be found.
 * Other messages come back as they were.
 */
export function nameDeploymentInMessage(message: string, deployments: readonly DeploymentInput[]): string {
  const match = /^deployments\[(\d+)\][.\s]?/.exec(message);
  const deployment = match ? deployments[Number(match[1])] : undefined;
  if (!match || !deployment) return message;
  const who = deployment.id ?? `${deployment.model}, not saved yet`;
  const where = deployment.base_url ?? deployment.provider;
  return `deployments[${match[1]}] (${who}${where ? `, ${where}` : ''}): ${message.slice(match[0].length).trimStart()}`;
}
