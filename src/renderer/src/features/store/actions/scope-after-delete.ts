import type { StoreScope } from '../../../api/query-keys.js';

/** The branch a namespace's screens fall back to: the store's default when it exists, else the first. */
const DEFAULT_BRANCH = 'main';

/**
 * Where the store screens' scope goes once `deleted` is gone from `namespace`, given the branches it
 * had (`before`) and the scope's branch (`current`); undefined when the scope can stay as it is.
 * Deleting the scope's branch moves it to `main` if the namespace still has one, else to its first
 * branch; never to a branch that is gone. When no branch is left, the scope keeps the namespace
 * (with the default branch, where a first write would go), so the screen shows that namespace empty
 * rather than jumping to another one.
 */
export function scopeAfterDelete(
  namespace: string,
  before: readonly string[],
  deleted: string,
  current: string,
): StoreScope | undefined {
  const remaining = before.filter((name) => name !== deleted);
  if (current !== deleted) return remaining.length > 0 ? undefined : { namespace, branch: current };
  const branch = remaining.includes(DEFAULT_BRANCH) ? DEFAULT_BRANCH : (remaining[0] ?? DEFAULT_BRANCH);
  return { namespace, branch };
}
