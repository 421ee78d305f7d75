import { closestKey } from '../../config/config-issues.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import { upstreamModelName } from '../providers/registry.js';

/**
 * `pricing` entries no request is priced by, each as `<where>: <why>`: requests are priced by the model
 * they were routed to, then by the deployment's upstream model, so a price under a misspelt name, or
 * under an alias, leaves every request costing 0, and cost budgets never fill. Not refused at start,
 * since the admin API may allow the model later; said in the log instead.
 */
export function unmatchedPrices(
  pricing: Readonly<Record<string, unknown>>,
  registry: Pick<ModelRegistry, 'deployments' | 'settings'>,
): string[] {
  const { allowed_models: allowed, model_aliases: aliases } = registry.settings();
  const upstream = registry
    .deployments()
    .flatMap((deployment) => [deployment.upstreamModel, upstreamModelName(deployment)]);
  const priced = new Set([...allowed, ...upstream]);
  const problems: string[] = [];
  for (const model of Object.keys(pricing)) {
    if (priced.has(model)) continue;
    if (Object.hasOwn(aliases, model)) {
      problems.push(
        `pricing.${model}: '${model}' is an alias, and requests are priced by the model it points at; name its target '${aliases[model]}'`,
      );
      continue;
    }
    const meant = closestKey(model, [...priced]);
    problems.push(
      `pricing.${model}: '${model}' is neither in llm.allowed_models nor a deployment's upstream model, so it prices no request (they cost 0 and reach no cost budget)${meant !== undefined ? `; did you mean '${meant}'?` : ''}`,
    );
  }
  return problems;
}
