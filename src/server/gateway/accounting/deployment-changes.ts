import type { DeploymentView } from '../../../shared/gateway-api.js';
import { toDeploymentView } from '../model-registry/deployment.js';
import type { Deployment } from '../providers/types.js';

/**
 * What a save of the deployment list changed, as the audit trail records it: the deployments removed
 * or changed as they were (`before`), those added or changed as they are now (`after`), and the ids
 * whose provider key was set (added with one too), replaced or cleared. Views never hold a key, and a key change is named by
 * its deployment's id alone: not the key, nor any part of it.
 */
export interface DeploymentChanges {
  readonly before: DeploymentView[];
  readonly after: DeploymentView[];
  readonly api_key_changed: string[];
  /** The ids in their old and new order, when only the order changed (it decides the fallback order). */
  readonly order?: { readonly before: string[]; readonly after: string[] };
  /** Where the list comes from, when a save moved it (the configuration file or the admin API). */
  readonly source?: { readonly before: string; readonly after: string };
}

/** The changes between two deployment lists, or undefined when the save changed nothing. */
export function deploymentChanges(
  before: readonly Deployment[],
  after: readonly Deployment[],
  source: { readonly before: string; readonly after: string },
): DeploymentChanges | undefined {
  const old = new Map(before.map((deployment) => [deployment.id, deployment]));
  const now = new Map(after.map((deployment) => [deployment.id, deployment]));
  const changes = {
    before: [] as DeploymentView[],
    after: [] as DeploymentView[],
    api_key_changed: [] as string[],
  };
  for (const deployment of before) {
    const next = now.get(deployment.id);
    const view = toDeploymentView(deployment);
    if (next === undefined) changes.before.push(view);
    else if (!sameView(view, toDeploymentView(next))) changes.before.push(view);
  }
  for (const deployment of after) {
    const previous = old.get(deployment.id);
    const view = toDeploymentView(deployment);
    if (previous === undefined || !sameView(toDeploymentView(previous), view)) changes.after.push(view);
    // A deployment added with a key has its key set, as much as one whose key was replaced.
    if (previous?.apiKey !== deployment.apiKey) changes.api_key_changed.push(deployment.id);
  }
  const reordered = changes.before.length === 0 && changes.after.length === 0 && !sameOrder(before, after);
  const moved = source.before !== source.after;
  if (!reordered && !moved && changes.before.length + changes.after.length + changes.api_key_changed.length === 0)
    return undefined;
  return {
    ...changes,
    ...(reordered ? { order: { before: before.map(idOf), after: after.map(idOf) } } : {}),
    ...(moved ? { source } : {}),
  };
}

const idOf = (deployment: Deployment): string => deployment.id;

function sameOrder(before: readonly Deployment[], after: readonly Deployment[]): boolean {
  return before.length === after.length && before.every((deployment, i) => deployment.id === after[i]!.id);
}

/** Views are plain JSON built field by field in one order, so their text compares them. */
function sameView(a: DeploymentView, b: DeploymentView): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
