import { useEffect, useMemo } from 'react';
import { useNamespaces } from '../../api/store-queries.js';
import type { StoreScope } from '../../api/query-keys.js';
import { updateSearch, useLocation, useSearchParams } from '../../app/router.js';

const STORAGE_KEY = 'gatehouse.scope';

function lastScope(): Partial<StoreScope> {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<StoreScope>;
  } catch {
    return {};
  }
}

/**
 * The namespace and branch the store screens look at: from the URL (`ns`, `branch`), else the last
 * ones used, else the first namespace there is, else `default` / `main`.
 */
export function useScope(): StoreScope {
  const params = useSearchParams();
  const namespaces = useNamespaces();
  const saved = lastScope();
  const fromUrl = params.get('ns');
  const known = namespaces.data?.namespaces.map((entry) => entry.name) ?? [];
  const fallback =
    saved.namespace && (known.length === 0 || known.includes(saved.namespace))
      ? saved.namespace
      : (known[0] ?? 'default');
  const namespace = fromUrl || fallback;
  const branch = params.get('branch') || (namespace === saved.namespace && saved.branch) || 'main';
  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ namespace, branch }));
  }, [namespace, branch]);
  return useMemo(() => ({ namespace, branch }), [namespace, branch]);
}

/** The URL query values of a scope, for links between store screens. */
export function scopeQuery(scope: StoreScope): { ns: string; branch: string } {
  return { ns: scope.namespace, branch: scope.branch };
}

/**
 * Names the scope a store screen shows in its address when the address does not (`ns`, `branch`),
 * replacing the history entry: a link copied from it then opens the same namespace and branch in any
 * browser, not whichever one that browser used last.
 */
export function useScopeInAddress(): void {
  const location = useLocation();
  const scope = useScope();
  const namespaces = useNamespaces();
  const params = new URLSearchParams(location.search);
  const unnamed = location.path.startsWith('store/') && (!params.get('ns') || !params.get('branch'));
  // Without `ns` the namespace is a stand-in until the namespaces are read (the first one, or `default`).
  const settled = !!params.get('ns') || namespaces.data !== undefined;
  useEffect(() => {
    if (unnamed && settled) updateSearch(scopeQuery(scope));
  }, [unnamed, settled, scope]);
}
