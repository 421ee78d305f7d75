import type { ModelRegistry } from './model-registry.js';

/**
 * The allowed models whose requests cost $0 under the prices in force: no price under their name, nor
 * under the upstream model of every paid deployment serving them. The built-in demo models cost nothing
 * anywhere, so they are left out. The Models screen marks these: dollar budgets do not count them.
 */
export function unpricedAllowedModels(registry: Pick<ModelRegistry, 'settings' | 'deploymentsFor'>): string[] {
  const { allowed_models: allowed, pricing } = registry.settings();
  const priced = (name: string): boolean => Object.hasOwn(pricing, name);
  return allowed.filter((model) => {
    if (priced(model)) return false;
    const deployments = registry.deploymentsFor(model);
    const paid = deployments.filter((deployment) => deployment.provider !== 'demo');
    if (paid.length === 0) return deployments.length === 0;
    return !paid.every((deployment) => priced(deployment.upstreamModel));
  });
}
