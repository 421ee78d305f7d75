/** A namespace plus branch: what every store screen is looking at. */
export interface StoreScope {
  readonly namespace: string;
  readonly branch: string;
}

/** Picks one revision of a branch: a checkpoint, a revision id, or the head (neither). */
export interface RevisionSelector {
  readonly revision?: number;
  readonly checkpoint?: string;
}

/**
 * Query keys, nested so that invalidating a prefix refreshes everything below it: a write to a
 * namespace invalidates `['store', namespace]` and the namespace list.
 */
export const queryKeys = {
  health: (service: string) => ['health', service] as const,
  store: {
    all: ['store'] as const,
    namespaces: () => ['store', '#namespaces'] as const,
    namespace: (namespace: string) => ['store', namespace] as const,
    branches: (namespace: string) => ['store', namespace, 'branches'] as const,
    checkpoints: (namespace: string) => ['store', namespace, 'checkpoints'] as const,
    log: (scope: StoreScope, key = '') => ['store', scope.namespace, 'log', scope.branch, key] as const,
    revision: (namespace: string, id: number) => ['store', namespace, 'revision', id] as const,
    state: (scope: StoreScope, at: RevisionSelector) =>
      ['store', scope.namespace, 'state', scope.branch, at.checkpoint ?? '', at.revision ?? 0] as const,
    headDiff: (scope: StoreScope, at: RevisionSelector) =>
      ['store', scope.namespace, 'diff', scope.branch, at.checkpoint ?? '', at.revision ?? 0] as const,
  },
  gateway: {
    keys: (includeRevoked: boolean) => ['gateway', 'api-keys', includeRevoked] as const,
    allKeys: ['gateway', 'api-keys'] as const,
    models: ['gateway', 'models'] as const,
    deployments: ['gateway', 'deployments'] as const,
    deploymentHealth: ['gateway', 'deployments', 'health'] as const,
    usage: (groupBy: string, bucket: string, windowMs: number, since: string) =>
      ['gateway', 'usage', groupBy, bucket, windowMs, since] as const,
    traffic: ['gateway', 'traffic'] as const,
    teams: ['gateway', 'teams'] as const,
    users: ['gateway', 'users'] as const,
    guardrails: ['gateway', 'guardrails'] as const,
    cache: ['gateway', 'cache'] as const,
  },
} as const;
