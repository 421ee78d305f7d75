import { closestName } from '../../../shared/closest-name.js';
import type { LimitsConfig } from '../../config/limits-schema.js';
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
    const meant = closestName(model, [...priced]);
    problems.push(
      `pricing.${model}: '${model}' is neither in llm.allowed_models nor a deployment's upstream model, so it prices no request (they cost 0 and reach no cost budget)${meant !== undefined ? `; did you mean '${meant}'?` : ''}`,
    );
  }
  return problems;
}

/** Where a configuration file sets a dollar budget (`limits.users.usd_daily_budget`, ...). */
export function fileDollarBudgets(limits: LimitsConfig): string[] {
  const where: string[] = [];
  for (const owner of ['keys', 'users', 'teams'] as const)
    for (const budget of ['usd_daily_budget', 'usd_monthly_budget'] as const)
      if (limits[owner][budget] !== undefined) where.push(`limits.${owner}.${budget}`);
  return where;
}

/**
 * The allowed models whose requests may cost 0 (no price under their name, nor under the upstream model
 * of every deployment that serves them), each as it is named in a warning. The built-in demo models
 * cost nothing anywhere, so they are left out.
 */
export function unpricedModels(
  pricing: Readonly<Record<string, unknown>>,
  registry: Pick<ModelRegistry, 'settings' | 'deploymentsFor'>,
): string[] {
  const priced = (name: string): boolean => Object.hasOwn(pricing, name);
  const unpriced: string[] = [];
  for (const model of registry.settings().allowed_models) {
    if (priced(model)) continue;
    const paid = registry.deploymentsFor(model).filter((deployment) => deployment.provider !== 'demo');
    if (paid.length === 0 && registry.deploymentsFor(model).length > 0) continue;
    const upstream = [...new Set(paid.map((deployment) => deployment.upstreamModel))];
    const free = upstream.filter((name) => !priced(name));
    if (upstream.length > 0 && free.length === 0) continue;
    const others = free.filter((name) => name !== model);
    unpriced.push(
      others.length === 0 ? `'${model}'` : `'${model}' (upstream ${others.map((name) => `'${name}'`).join(', ')})`,
    );
  }
  return unpriced;
}

/**
 * A dollar budget is set (`budgets` names where) while some allowed model has no price: its requests
 * cost 0, so the budget never stops them, and nothing else says so. One warning naming the models.
 */
export function unpricedUnderBudgets(
  budgets: readonly string[],
  pricing: Readonly<Record<string, unknown>>,
  registry: Pick<ModelRegistry, 'settings' | 'deploymentsFor'>,
): string[] {
  if (budgets.length === 0) return [];
  const models = unpricedModels(pricing, registry);
  if (models.length === 0) return [];
  return [
    `${budgets.join(', ')}: dollar budgets are set, but ${models.join(', ')} ${models.length === 1 ? 'has' : 'have'} no price in pricing, so ${models.length === 1 ? 'its' : 'their'} requests cost $0 and no dollar budget stops them; add a pricing entry (by the model's name or its upstream model's), or use token budgets (tpd_budget) for them`,
  ];
}
