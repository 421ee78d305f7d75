import { closestName } from '../../../shared/closest-name.js';
import type { ModelRegistry } from './model-registry.js';

/**
 * Deployments no request is routed to, each as `<where>: <why>`: one whose `model` is an alias (aliases
 * are rewritten to their target before routing) or is outside `llm.allowed_models` (such requests are
 * refused), unless it serves `rag.embedding_model`, which is looked up by name. A typo there is worse
 * than idle: requests for the model meant go to the deployment derived from its name, the provider's
 * public address. Not refused at start, since a deployment may be kept for passthrough embeddings or
 * for a model the admin API allows later; the gateway says so in its log instead.
 */
export function unreachableDeployments(
  registry: Pick<ModelRegistry, 'deployments' | 'deploymentsSource' | 'settings'>,
  ragEmbeddingModel: string | undefined,
): string[] {
  const { allowed_models: allowed, model_aliases: aliases } = registry.settings();
  const fromFile = registry.deploymentsSource().source === 'config';
  const problems: string[] = [];
  registry.deployments().forEach((deployment, index) => {
    const model = deployment.model;
    if (model === ragEmbeddingModel || (allowed.includes(model) && !Object.hasOwn(aliases, model))) return;
    const where = fromFile
      ? `deployments[${index}].model`
      : `deployment '${deployment.id}' (saved through PUT /internal/deployments)`;
    if (Object.hasOwn(aliases, model)) {
      problems.push(
        `${where}: '${model}' is an alias, and requests are routed by the model it points at; name its target '${aliases[model]}'`,
      );
      return;
    }
    const meant = closestName(model, allowed);
    problems.push(
      `${where}: '${model}' is not in llm.allowed_models, so no request is routed to this deployment${meant !== undefined ? ` (did you mean '${meant}'?)` : ''}`,
    );
  });
  return problems;
}
