import type { DeploymentHealthTracker } from '../../model-registry/deployment-health.js';
import type { Deployment } from '../../providers/types.js';
import type { RequestContext } from '../request-context.js';

/**
 * The order to try deployments in: a weighted random draw without replacement (so load follows the
 * weights and every deployment is a fallback for the others), deployments cooling down last.
 */
export function deploymentOrder(
  deployments: readonly Deployment[],
  health: DeploymentHealthTracker,
  random: () => number = Math.random,
): readonly Deployment[] {
  // One deployment is its own order (the list is only read): no copy on the common path.
  if (deployments.length <= 1) return deployments;
  const pool = [...deployments];
  const ordered: Deployment[] = [];
  // Weights as shares of the largest: a sum of weights near the largest number would overflow to
  // Infinity and hand every first choice to the last deployment.
  let largest = 0;
  for (const d of pool) largest = Math.max(largest, d.weight);
  while (pool.length > 0) {
    let total = 0;
    for (const d of pool) total += d.weight / largest;
    let pick = random() * total;
    let index = 0;
    for (; index < pool.length - 1; index += 1) {
      pick -= pool[index]!.weight / largest;
      if (pick < 0) break;
    }
    ordered.push(pool.splice(index, 1)[0]!);
  }
  const ready = ordered.filter((d) => !health.coolingDown(d.id));
  return ready.length === ordered.length ? ordered : [...ready, ...ordered.filter((d) => health.coolingDown(d.id))];
}

/** Makes the route stage try first the ready deployment `prefers` picks (the order after it unchanged). */
export function tryFirst(ctx: RequestContext, prefers: (deployment: Deployment) => boolean): void {
  ctx.firstChoice = prefers;
}

/**
 * `order` with the first ready deployment `prefers` picks moved to its front, the others in their
 * order; `order` itself when none is ready, or it already leads.
 */
export function withFirstChoice(
  order: readonly Deployment[],
  prefers: ((deployment: Deployment) => boolean) | undefined,
  health: DeploymentHealthTracker,
): readonly Deployment[] {
  if (prefers === undefined) return order;
  const index = order.findIndex((deployment) => !health.coolingDown(deployment.id) && prefers(deployment));
  if (index <= 0) return order;
  return [order[index]!, ...order.slice(0, index), ...order.slice(index + 1)];
}
